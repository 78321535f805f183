/// An error the Worldline Direct emulator answers, in the provider's error body shape:
/// `{"errorId":…,"errors":[{"errorCode","code","category","httpStatusCode","id","message",`
/// `"propertyName","retriable"}]}`.
///
/// Error codes of the emulator (stable):
/// - `40101001` authentication failed (bad or missing signature, unknown key, missing or stale `Date`), 401
/// - `40301001` the API key does not belong to the merchant of the path, 403
/// - `40001001` invalid request (see `propertyName`), 400
/// - `40001002` amount larger than what is left to capture, cancel or refund, 400
/// - `40001010` client session expired, 400; `40001011` client session already used, 400;
///   `40001012` unknown client session, 400 (401 on the client API); `40001013` `encryptedCustomerInput`
///   cannot be decrypted, 400
/// - `40401001` unknown payment, 404
/// - `40901001` the payment's status does not allow the operation, 409
/// - `30001002` a request with this idempotence key is still in progress, 409
/// - `30511001` authorisation declined (with `paymentResult`), 402
public struct WorldlineDirectSandboxError: Error, Sendable, Equatable {
    /// HTTP status of the answer.
    public var httpStatus: Int
    /// The provider-style error code.
    public var errorCode: String
    /// Short label (`id` of the error object).
    public var id: String
    /// Human-readable message (never contains card data or secrets).
    public var message: String
    /// The request property at fault, when one is.
    public var propertyName: String?
    /// `DIRECT_PLATFORM_ERROR`, `PAYMENT_PLATFORM_ERROR` or `IO_ERROR`.
    public var category: String = "DIRECT_PLATFORM_ERROR"
    /// Whether resending (with a new idempotence key) may succeed.
    public var retriable: Bool = false

    static func authentication(_ message: String) -> Self {
        .init(httpStatus: 401, errorCode: "40101001", id: "AUTHENTICATION_FAILED", message: message)
    }

    static let wrongMerchant = Self(
        httpStatus: 403, errorCode: "40301001", id: "ACCESS_TO_MERCHANT_NOT_ALLOWED",
        message: "the API key is not allowed for this merchant")

    static func invalid(_ property: String, _ message: String) -> Self {
        .init(
            httpStatus: 400, errorCode: "40001001", id: "PARAMETER_NOT_FOUND_IN_REQUEST", message: message,
            propertyName: property)
    }

    static func amountTooLarge(_ property: String) -> Self {
        .init(
            httpStatus: 400, errorCode: "40001002", id: "AMOUNT_EXCEEDS_REMAINING",
            message: "amount exceeds what is left",
            propertyName: property)
    }

    static let sessionExpired = Self(
        httpStatus: 400, errorCode: "40001010", id: "CLIENT_SESSION_EXPIRED", message: "client session expired")
    static let sessionUsed = Self(
        httpStatus: 400, errorCode: "40001011", id: "CLIENT_SESSION_ALREADY_USED",
        message: "client session already used")
    static let sessionUnknown = Self(
        httpStatus: 400, errorCode: "40001012", id: "CLIENT_SESSION_UNKNOWN", message: "unknown client session")
    static let undecryptable = Self(
        httpStatus: 400, errorCode: "40001013", id: "ENCRYPTED_CUSTOMER_INPUT_INVALID",
        message: "encryptedCustomerInput cannot be decrypted", propertyName: "encryptedCustomerInput")
    static let unknownPayment = Self(
        httpStatus: 404, errorCode: "40401001", id: "UNKNOWN_PAYMENT_ID", message: "unknown payment")

    static func invalidState(_ message: String) -> Self {
        .init(httpStatus: 409, errorCode: "40901001", id: "INVALID_PAYMENT_STATUS", message: message)
    }

    static let inProgress = Self(
        httpStatus: 409, errorCode: "30001002", id: "IDEMPOTENCE_REQUEST_IN_PROGRESS",
        message: "a request with this idempotence key is still in progress", retriable: true)

    static let declined = Self(
        httpStatus: 402, errorCode: "30511001", id: "AUTHORIZATION_DECLINED", message: "authorisation declined",
        category: "PAYMENT_PLATFORM_ERROR")

    static let unavailable = Self(
        httpStatus: 503, errorCode: "50301001", id: "SERVICE_UNAVAILABLE", message: "service temporarily unavailable",
        category: "IO_ERROR", retriable: true)

    static let internalError = Self(
        httpStatus: 500, errorCode: "50001001", id: "INTERNAL_ERROR", message: "internal error", retriable: true)
}
