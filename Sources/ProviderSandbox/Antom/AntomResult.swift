/// The `result` object of every Antom answer and notification.
///
/// Codes the emulator answers (stable):
/// - `S SUCCESS`; `U PAYMENT_IN_PROCESS` (payment left PROCESSING); `U UNKNOWN_EXCEPTION` (the emulator
///   could not sign, never expected)
/// - request errors: `F INVALID_CLIENT`, `F INVALID_SIGNATURE`, `F KEY_NOT_FOUND` (unsigned answers),
///   `F PARAM_ILLEGAL`, `F REPEAT_REQ_INCONSISTENT`
/// - declines: `F USER_BALANCE_NOT_ENOUGH`, `F RISK_REJECT`, `F INVALID_ACCESS_TOKEN`,
///   `F USER_PAYMENT_VERIFICATION_FAILED`, `F ORDER_IS_CLOSED` (session expired or payment failed)
/// - operations: `F ORDER_NOT_EXIST` (unknown payment, refund or capture), `F ORDER_STATUS_INVALID`,
///   `F CAPTURE_AMOUNT_EXCEED`, `F REFUND_AMOUNT_EXCEED`, `F CANCEL_WINDOW_EXCEED`, `F VAULTING_NOT_EXIST`
struct AntomResult: Codable, Sendable, Equatable {
    var resultCode: String
    var resultStatus: String
    var resultMessage: String

    init(_ status: String, _ code: String, _ message: String) {
        self.resultStatus = status
        self.resultCode = code
        self.resultMessage = message
    }

    var isSuccess: Bool { resultStatus == "S" }

    static let success = Self("S", "SUCCESS", "success")
    static let inProcess = Self("U", "PAYMENT_IN_PROCESS", "payment is being processed")
    static let trafficLimit = Self("U", "REQUEST_TRAFFIC_EXCEED_LIMIT", "too many requests, try again later")
    static let unknownException = Self("U", "UNKNOWN_EXCEPTION", "unknown exception, retry with the same request id")

    static let invalidClient = Self("F", "INVALID_CLIENT", "the client id is not registered")
    static let invalidSignature = Self("F", "INVALID_SIGNATURE", "the signature could not be verified")
    static let keyNotFound = Self("F", "KEY_NOT_FOUND", "no key of this version is registered")
    static func paramIllegal(_ message: String) -> Self { Self("F", "PARAM_ILLEGAL", message) }
    static let repeatInconsistent = Self(
        "F", "REPEAT_REQ_INCONSISTENT", "the request id was used before with different content")

    static let balanceNotEnough = Self("F", "USER_BALANCE_NOT_ENOUGH", "the user balance is not enough")
    static let riskReject = Self("F", "RISK_REJECT", "rejected by risk control")
    static let invalidAccessToken = Self("F", "INVALID_ACCESS_TOKEN", "the access token or card token is not valid")
    static let verificationFailed = Self(
        "F", "USER_PAYMENT_VERIFICATION_FAILED", "the user did not confirm the payment")
    static let orderClosed = Self("F", "ORDER_IS_CLOSED", "the order is closed")

    static let orderNotExist = Self("F", "ORDER_NOT_EXIST", "the order does not exist")
    static func statusInvalid(_ message: String) -> Self { Self("F", "ORDER_STATUS_INVALID", message) }
    static let captureAmountExceed = Self("F", "CAPTURE_AMOUNT_EXCEED", "the capture amount exceeds what is left")
    static let refundAmountExceed = Self("F", "REFUND_AMOUNT_EXCEED", "the refund amount exceeds what is left")
    static let cancelWindowExceed = Self("F", "CANCEL_WINDOW_EXCEED", "the cancellation window has passed")
    static let vaultingNotExist = Self("F", "VAULTING_NOT_EXIST", "the vaulting request does not exist")

    static let repeatRequest = Self("F", "REPEAT_REQUEST", "the dispute was answered already")
    static let timeExceedsLimit = Self("F", "TIME_EXCEEDS_LIMIT", "the defence deadline has passed")
    static let notAllowedInCurrentStatus = Self(
        "F", "NOT_ALLOWED_IN_CURRENT_STATUS", "the dispute cannot be answered in its current status")
}

/// An error of the emulator's admin surface and Swift API (never contains card data or tokens).
///
/// Codes: `SESSION_NOT_FOUND` (404), `SESSION_EXPIRED` (409), `SESSION_COMPLETED` (409), `SESSION_CLOSED` (409),
/// `TOKEN_NOT_FOUND` (404), `TOKEN_CANCELED` (409), `VAULTING_NOT_FOUND` (404), `CARD_INVALID` (400),
/// `PAYMENT_NOT_FOUND` (404), `PAYMENT_NOT_PROCESSING` (409), `INVALID_KEY` (400 or 500).
public struct AntomSandboxError: Error, Sendable, Equatable, Codable {
    /// Stable machine-readable code.
    public var code: String
    /// Human-readable message.
    public var message: String
    /// HTTP status of the admin answer.
    public var httpStatus: Int

    /// Creates an error.
    public init(code: String, message: String, httpStatus: Int) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
    }

    static let sessionNotFound = Self(code: "SESSION_NOT_FOUND", message: "unknown payment session", httpStatus: 404)
    static let sessionExpired = Self(code: "SESSION_EXPIRED", message: "the session has expired", httpStatus: 409)
    static let sessionClosed = Self(
        code: "SESSION_CLOSED", message: "the session's payment was cancelled", httpStatus: 409)
    static let sessionCompleted = Self(
        code: "SESSION_COMPLETED", message: "the session was already completed", httpStatus: 409)
    static let tokenNotFound = Self(code: "TOKEN_NOT_FOUND", message: "unknown access token", httpStatus: 404)
    static let tokenCanceled = Self(
        code: "TOKEN_CANCELED", message: "the access token is already canceled", httpStatus: 409)
    static let vaultingNotFound = Self(code: "VAULTING_NOT_FOUND", message: "unknown vaulting session", httpStatus: 404)
    static func cardInvalid(_ message: String) -> Self { Self(code: "CARD_INVALID", message: message, httpStatus: 400) }
    static let paymentNotFound = Self(code: "PAYMENT_NOT_FOUND", message: "unknown payment", httpStatus: 404)
    static let disputeNotFound = Self(code: "DISPUTE_NOT_FOUND", message: "unknown dispute", httpStatus: 404)
    static let notDisputable = Self(
        code: "PAYMENT_NOT_DISPUTABLE", message: "only a paid payment can be disputed", httpStatus: 409)
    static func disputeInput(_ message: String) -> Self {
        Self(code: "DISPUTE_INVALID", message: message, httpStatus: 400)
    }
    static let paymentNotProcessing = Self(
        code: "PAYMENT_NOT_PROCESSING", message: "the payment is not PROCESSING", httpStatus: 409)
    static let keyUnavailable = Self(
        code: "INVALID_KEY", message: "the sandbox signing key is unreadable or could not be generated", httpStatus: 500
    )
}
