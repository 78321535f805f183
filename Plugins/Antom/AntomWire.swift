#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Codable mirrors of Antom's (Alipay global AMS) JSON. Every response field is optional so that a partial
// answer still decodes; the mapping decides what is required. Request fields that are always sent are not
// optional; optional request fields are omitted when nil.

/// `{currency, value}`: `value` is the string of an integer amount in minor units.
struct AntomAmount: Codable, Sendable, Equatable {
    var currency: String?
    var value: String?

    init(currency: String?, value: String?) {
        self.currency = currency
        self.value = value
    }

    /// An amount of `minor` units of `currency`.
    init(minor: Int64, currency: String) {
        self.init(currency: currency, value: String(minor))
    }

    /// The value as minor units, when it is an integer.
    var minorUnits: Int64? {
        value.flatMap { Int64($0.trimmingBlanks()) }
    }

    private enum CodingKeys: String, CodingKey {
        case currency, value
    }

    /// Decodes an amount whose `value` may arrive as a string or a number.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        currency = c.lenientString(forKey: .currency)
        value = c.lenientString(forKey: .value)
    }
}

/// `result` of every response (and of notifications): `resultStatus` is `S`, `F` or `U`.
struct AntomResult: Codable, Sendable, Equatable {
    var resultCode: String?
    var resultStatus: String?
    var resultMessage: String?
}

/// The part every response shares; decoded first to classify the answer.
struct AntomEnvelope: Decodable, Sendable, Equatable {
    var result: AntomResult?
}

/// `paymentMethod` of a payment request.
struct AntomPaymentMethod: Codable, Sendable, Equatable {
    var paymentMethodType: String
    var paymentMethodId: String?
}

/// `order.buyer`.
struct AntomBuyer: Codable, Sendable, Equatable {
    var referenceBuyerId: String?
}

/// `order` of a payment request.
struct AntomOrder: Codable, Sendable, Equatable {
    var referenceOrderId: String
    var orderDescription: String
    var orderAmount: AntomAmount
    var buyer: AntomBuyer?
}

/// `env`: where the customer pays.
struct AntomEnv: Codable, Sendable, Equatable {
    var terminalType: String
    var osType: String?
}

/// `settlementStrategy`.
struct AntomSettlementStrategy: Codable, Sendable, Equatable {
    var settlementCurrency: String
}

/// `agreementInfo`: asks for an EasySafePay access token; `authState` comes back in notifyAuthorization.
struct AntomAgreementInfo: Codable, Sendable, Equatable {
    var authState: String
    var userLoginId: String?
}

/// `paymentFactor` of a card payment.
struct AntomPaymentFactor: Codable, Sendable, Equatable {
    var isAuthorization: Bool
    var captureMode: String
}

/// One entry of an inquiry's `transactions[]` (captures, refunds, cancellations).
struct AntomTransaction: Codable, Sendable, Equatable {
    var transactionType: String?
    var transactionStatus: String?
    var transactionRequestId: String?
    var transactionId: String?
    var transactionAmount: AntomAmount?
    var transactionTime: String?
}

extension KeyedDecodingContainer {
    /// A scalar as text: strings as they are, numbers and booleans printed; nil when absent or not a scalar.
    func lenientString(forKey key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return text }
        if let number = try? decodeIfPresent(Int64.self, forKey: key) { return String(number) }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return String(number) }
        if let flag = try? decodeIfPresent(Bool.self, forKey: key) { return flag ? "true" : "false" }
        return nil
    }
}
