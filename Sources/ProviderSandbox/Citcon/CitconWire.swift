import Foundation

// Wire types of the Citcon UPI API as the emulator reads and writes them. Every field of a request
// is optional here so that a missing field becomes a `4000` validation error, not a decoding failure.

/// Response envelope: `{"status":…,"app":"citcon_upi","version":"v1.0.0","data":…}`.
struct CitconEnvelope<Payload: Encodable>: Encodable {
    var status: String
    var app = "citcon_upi"
    var version = "v1.0.0"
    var data: Payload
}

/// `data` of a failure envelope.
struct CitconFailureData: Encodable {
    var code: String
    var message: String
}

struct CitconTokenRequest: Decodable {
    var tokenType: String?

    enum CodingKeys: String, CodingKey {
        case tokenType = "token_type"
    }
}

struct CitconTokenData: Encodable {
    var accessToken: String
    var tokenType: String
    var expiry: Int64
    var permission: [String]

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiry, permission
    }
}

struct CitconChargeRequest: Decodable {
    struct Transaction: Decodable {
        var reference: String?
        var amount: Int64?
        var currency: String?
        var country: String?
        var autoCapture: Bool?
        var note: String?
        // Older integrations nest the URLs in the transaction.
        var ipnURL: String?

        enum CodingKeys: String, CodingKey {
            case reference, amount, currency, country, note
            case autoCapture = "auto_capture"
            case ipnURL = "ipn_url"
        }
    }

    struct URLs: Decodable {
        var ipn: String?
        var success: String?
        var fail: String?
    }

    struct Payment: Decodable {
        var method: String?
    }

    var transaction: Transaction?
    var urls: URLs?
    var payment: Payment?
}

struct CitconConfirmRequest: Decodable {
    struct Payment: Decodable {
        var method: String?
    }

    var payment: Payment?
}

struct CitconCaptureRequest: Decodable {
    var id: String?
    var reference: String?
    var amount: Int64?
}

struct CitconCancelRequest: Decodable {
    var id: String?
    var reference: String?
    var transactionReference: String?

    enum CodingKeys: String, CodingKey {
        case id, reference
        case transactionReference = "transaction_reference"
    }
}

struct CitconRefundRequest: Decodable {
    var id: String?
    var reference: String?
    var amount: Int64?
    var note: String?
    var transactionReference: String?

    enum CodingKeys: String, CodingKey {
        case id, reference, amount, note
        case transactionReference = "transaction_reference"
    }
}

/// The charge object (create, confirm and inquiry answers). Absent values are written as `null`.
struct CitconChargeData: Encodable {
    var charge: CitconCharge

    enum CodingKeys: String, CodingKey {
        case object, id, reference, amount, currency, country, status, payment, expiry, code, message
        case chargeToken = "charge_token"
        case autoCapture = "auto_capture"
        case amountCaptured = "amount_captured"
        case amountRefunded = "amount_refunded"
        case timeCreated = "time_created"
        case timeCaptured = "time_captured"
        case timeCanceled = "time_canceled"
    }

    struct Payment: Encodable {
        var method: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(method, forKey: .method)
        }

        enum CodingKeys: String, CodingKey { case method }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("charge", forKey: .object)
        try container.encode(charge.id, forKey: .id)
        try container.encode(charge.chargeToken, forKey: .chargeToken)
        try container.encode(charge.reference, forKey: .reference)
        try container.encode(charge.amount, forKey: .amount)
        try container.encode(charge.currency, forKey: .currency)
        try container.encode(charge.country, forKey: .country)
        try container.encode(charge.status.rawValue, forKey: .status)
        try container.encode(charge.autoCapture, forKey: .autoCapture)
        try container.encode(charge.amountCaptured, forKey: .amountCaptured)
        try container.encode(charge.amountRefunded, forKey: .amountRefunded)
        try container.encode(charge.createdAt.epochSeconds, forKey: .timeCreated)
        try container.encode(charge.capturedAt?.epochSeconds, forKey: .timeCaptured)
        try container.encode(charge.canceledAt?.epochSeconds, forKey: .timeCanceled)
        try container.encode(charge.expiresAt.epochSeconds, forKey: .expiry)
        try container.encode(Payment(method: charge.paymentMethod), forKey: .payment)
        if let code = charge.failureCode {
            try container.encode(code, forKey: .code)
            try container.encode(charge.failureMessage ?? "", forKey: .message)
        }
    }
}

struct CitconCaptureData: Encodable {
    var id: String
    var object = "capture"
    var reference: String
    var transactionID: String
    var amount: Int64
    var currency: String
    var status = "succeeded"
    var timeCreated: Int64

    enum CodingKeys: String, CodingKey {
        case id, object, reference, amount, currency, status
        case transactionID = "transaction_id"
        case timeCreated = "time_created"
    }
}

struct CitconCancelData: Encodable {
    var id: String
    var object = "cancel"
    var reference: String
    var transactionID: String
    var amount: Int64
    var currency: String
    var status = "canceled"
    var timeCreated: Int64

    enum CodingKeys: String, CodingKey {
        case id, object, reference, amount, currency, status
        case transactionID = "transaction_id"
        case timeCreated = "time_created"
    }
}

struct CitconRefundData: Encodable {
    var id: String
    var object = "refund"
    var reference: String
    var transactionID: String
    var amount: Int64
    var amountRefunded: Int64
    var currency: String
    var status = "succeeded"
    var timeCreated: Int64
    var timeCompleted: Int64

    enum CodingKeys: String, CodingKey {
        case id, object, reference, amount, currency, status
        case transactionID = "transaction_id"
        case amountRefunded = "amount_refunded"
        case timeCreated = "time_created"
        case timeCompleted = "time_completed"
    }
}

extension Date {
    /// Whole seconds since 1970 (the Citcon wire's time unit).
    var epochSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}
