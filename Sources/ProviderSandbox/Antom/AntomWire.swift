import Foundation

// Request wire types of the Antom emulator, written from the protocol notes (never shared with a plugin).
// Every field is optional so that a missing one is answered `F PARAM_ILLEGAL` naming it.

/// A JSON scalar read as text: Antom asks for strings (`"1000"`, `"true"`) but numbers and booleans
/// are accepted too.
struct AntomScalar: Decodable, Sendable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
        } else if let integer = try? container.decode(Int64.self) {
            text = String(integer)
        } else if let bool = try? container.decode(Bool.self) {
            text = bool ? "true" : "false"
        } else {
            throw DecodingError.typeMismatch(
                String.self, .init(codingPath: decoder.codingPath, debugDescription: "expected a scalar"))
        }
    }

    /// `true`/`false` (case-insensitive), nil otherwise.
    var bool: Bool? {
        switch text.lowercased() {
        case "true": true
        case "false": false
        default: nil
        }
    }
}

struct AntomAmountInput: Decodable, Sendable {
    var currency: String?
    var value: AntomScalar?
}

struct AntomPaymentMethodInput: Decodable, Sendable {
    var paymentMethodType: String?
    var paymentMethodId: String?
}

struct AntomBuyerInput: Decodable, Sendable {
    var referenceBuyerId: String?
}

struct AntomOrderInput: Decodable, Sendable {
    var referenceOrderId: String?
    var orderDescription: String?
    var orderAmount: AntomAmountInput?
    var buyer: AntomBuyerInput?
}

struct AntomEnvInput: Decodable, Sendable {
    var terminalType: String?
    var osType: String?
}

struct AntomSettlementInput: Decodable, Sendable {
    var settlementCurrency: String?
}

struct AntomAgreementInput: Decodable, Sendable {
    var authState: String?
    var userLoginId: String?
}

struct AntomPaymentFactorInput: Decodable, Sendable {
    var isAuthorization: AntomScalar?
    var captureMode: String?
}

/// `payments/createPaymentSession`.
struct AntomCreateSessionRequest: Decodable, Sendable {
    var productCode: String?
    var productScene: String?
    var paymentRequestId: String?
    var paymentAmount: AntomAmountInput?
    var paymentMethod: AntomPaymentMethodInput?
    var order: AntomOrderInput?
    var env: AntomEnvInput?
    var settlementStrategy: AntomSettlementInput?
    var paymentNotifyUrl: String?
    var paymentRedirectUrl: String?
    var agreementInfo: AntomAgreementInput?
    var paymentSessionExpiryTime: String?
}

/// `payments/pay`.
struct AntomPayRequest: Decodable, Sendable {
    var productCode: String?
    var paymentRequestId: String?
    var paymentAmount: AntomAmountInput?
    var paymentMethod: AntomPaymentMethodInput?
    var paymentFactor: AntomPaymentFactorInput?
    var order: AntomOrderInput?
    var env: AntomEnvInput?
    var settlementStrategy: AntomSettlementInput?
    var paymentNotifyUrl: String?
    var paymentRedirectUrl: String?
}

/// `payments/inquiryPayment` and `payments/cancel`.
/// `payments/acceptDispute` and `payments/supplyDefenseDocument`.
struct AntomDisputeInput: Decodable, Sendable {
    var disputeId: String?
    var disputeEvidence: String?
}

struct AntomPaymentLookup: Decodable, Sendable {
    var paymentRequestId: String?
    var paymentId: String?
}

/// `payments/refund`.
struct AntomRefundRequest: Decodable, Sendable {
    var refundRequestId: String?
    var paymentId: String?
    var refundAmount: AntomAmountInput?
    var refundReason: String?
    var refundNotifyUrl: String?
}

/// `payments/inquiryRefund`.
struct AntomRefundLookup: Decodable, Sendable {
    var refundRequestId: String?
    var refundId: String?
}

/// `payments/capture`.
struct AntomCaptureRequest: Decodable, Sendable {
    var captureRequestId: String?
    var paymentId: String?
    var captureAmount: AntomAmountInput?
    var isLastCapture: AntomScalar?
}

/// `vaults/createVaultingSession`.
struct AntomVaultingSessionRequest: Decodable, Sendable {
    var paymentMethodType: String?
    var vaultingRequestId: String?
    var vaultingNotificationUrl: String?
    var redirectUrl: String?
    var merchantRegion: String?
    var is3DSAuthentication: AntomScalar?
}

/// `vaults/inquireVaulting`.
struct AntomVaultingLookup: Decodable, Sendable {
    var vaultingRequestId: String?
}

/// A request rejected before it reached the state (answered with `result` only).
struct AntomRequestError: Error, Sendable {
    let result: AntomResult

    static func missing(_ field: String) -> Self {
        Self(result: .paramIllegal("\(field) is required"))
    }

    static func invalid(_ field: String, _ reason: String) -> Self {
        Self(result: .paramIllegal("\(field) \(reason)"))
    }
}

/// Validation helpers of the request types.
enum AntomInput {
    /// A required non-empty string field.
    static func required(_ value: String?, _ field: String) throws(AntomRequestError) -> String {
        guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else { throw .missing(field) }
        guard value.count <= 2048 else { throw .invalid(field, "is too long") }
        return value
    }

    /// A required amount: 3-letter currency and a positive integer value in minor units.
    static func money(_ amount: AntomAmountInput?, _ field: String) throws(AntomRequestError) -> (Int64, String) {
        guard let amount else { throw .missing(field) }
        guard let currency = amount.currency, currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter })
        else { throw .invalid("\(field).currency", "must be an ISO 4217 code") }
        guard let text = amount.value?.text else { throw .missing("\(field).value") }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(text), value > 0 else {
            throw .invalid("\(field).value", "must be a positive integer of minor units")
        }
        return (value, currency.uppercased())
    }

    /// An optional boolean given as a JSON boolean or a string.
    static func bool(_ scalar: AntomScalar?, _ field: String) throws(AntomRequestError) -> Bool? {
        guard let scalar else { return nil }
        guard let value = scalar.bool else { throw .invalid(field, "must be true or false") }
        return value
    }

    /// Decodes a request body (already known to be a JSON object).
    static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws(AntomRequestError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let DecodingError.typeMismatch(_, context) {
            throw .invalid(path(context.codingPath), "has the wrong type")
        } catch {
            throw AntomRequestError(result: .paramIllegal("the body does not match the request schema"))
        }
    }

    /// The body as canonical JSON (sorted keys), nil when it is not a JSON object.
    static func canonical(_ bytes: [UInt8]) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)), object is [String: Any],
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map(\.stringValue).joined(separator: ".")
    }
}
