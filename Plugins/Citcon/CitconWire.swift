#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Codable mirrors of the Citcon UPI JSON. No logic lives here; see CitconMapping for the rules.

/// The first look at any Citcon answer: only the envelope's `status` (`success` or `fail`).
struct CitconEnvelopeStatus: Decodable, Sendable {
    var status: String

    enum CodingKeys: String, CodingKey {
        case status
    }
}

/// The envelope every Citcon answer comes in: `{"status","app","version","data"}`.
struct CitconEnvelope<Payload: Decodable & Sendable>: Decodable, Sendable {
    var status: String
    var app: String?
    var version: String?
    var data: Payload?

    enum CodingKeys: String, CodingKey {
        case status
        case app
        case version
        case data
    }
}

/// `data` of a `fail` envelope.
struct CitconErrorData: Codable, Sendable, Equatable {
    /// A four-digit code as a string, e.g. `4100`.
    var code: String?
    var message: String?

    enum CodingKeys: String, CodingKey {
        case code
        case message
    }
}

// MARK: - Access tokens

/// Body of `POST /v1/access-tokens`.
struct CitconAccessTokenRequest: Codable, Sendable, Equatable {
    /// `server` or `client`.
    var tokenType: String

    enum CodingKeys: String, CodingKey {
        case tokenType = "token_type"
    }
}

/// `data` of the `POST /v1/access-tokens` answer.
struct CitconAccessTokenData: Codable, Sendable, Equatable {
    var accessToken: String
    var tokenType: String?
    /// Epoch seconds, or milliseconds in older deployments.
    var expiry: Int64?
    var permission: [String]?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiry
        case permission
    }
}

// MARK: - Charges

/// Body of `POST /v1/charges` (a pending charge: no `payment` block).
struct CitconChargeRequest: Codable, Sendable, Equatable {
    var transaction: CitconChargeTransaction
    var urls: CitconURLs

    enum CodingKeys: String, CodingKey {
        case transaction
        case urls
    }
}

/// The `transaction` block of a charge request.
struct CitconChargeTransaction: Codable, Sendable, Equatable {
    var reference: String
    var amount: Int64
    var currency: String
    var country: String
    var autoCapture: Bool
    var note: String?

    enum CodingKeys: String, CodingKey {
        case reference
        case amount
        case currency
        case country
        case autoCapture = "auto_capture"
        case note
    }
}

/// The `urls` block of a charge request.
struct CitconURLs: Codable, Sendable, Equatable {
    var ipn: String
    var success: String?
    var fail: String?

    enum CodingKeys: String, CodingKey {
        case ipn
        case success
        case fail
    }
}

/// `data` of the `POST /v1/charges` answer.
struct CitconChargeData: Codable, Sendable, Equatable {
    var object: String?
    var id: String
    var chargeToken: String?
    var reference: String?
    var amount: Int64?
    var currency: String?
    var country: String?
    var status: String?
    var autoCapture: Bool?
    var timeCreated: Int64?
    /// When the pending charge expires (epoch seconds).
    var expiry: Int64?

    enum CodingKeys: String, CodingKey {
        case object
        case id
        case chargeToken = "charge_token"
        case reference
        case amount
        case currency
        case country
        case status
        case autoCapture = "auto_capture"
        case timeCreated = "time_created"
        case expiry
    }
}

// MARK: - Inquiry

/// `data` of the `GET /v1/transactions/{id}` answer.
struct CitconTransactionData: Codable, Sendable, Equatable {
    var id: String
    var object: String?
    var reference: String?
    var amount: Int64?
    var currency: String?
    var country: String?
    var status: String?
    var autoCapture: Bool?
    var amountCaptured: Int64?
    var amountRefunded: Int64?
    var timeCreated: Int64?
    var timeCaptured: Int64?
    var timeCanceled: Int64?
    var payment: CitconPaymentInfo?
    /// The charge token of a pending charge, when the inquiry carries it.
    var chargeToken: String?
    /// When a pending charge expires (epoch seconds or milliseconds), when the inquiry carries it.
    var expiry: Int64?

    enum CodingKeys: String, CodingKey {
        case id
        case object
        case reference
        case amount
        case currency
        case country
        case status
        case autoCapture = "auto_capture"
        case amountCaptured = "amount_captured"
        case amountRefunded = "amount_refunded"
        case timeCreated = "time_created"
        case timeCaptured = "time_captured"
        case timeCanceled = "time_canceled"
        case payment
        case chargeToken = "charge_token"
        case expiry
    }
}

/// The `payment` block of a transaction.
struct CitconPaymentInfo: Codable, Sendable, Equatable {
    var method: String?

    enum CodingKeys: String, CodingKey {
        case method
    }
}

// MARK: - Captures, cancels, refunds

/// Body of `POST /v1/captures`.
struct CitconCaptureRequest: Codable, Sendable, Equatable {
    /// Citcon's charge id.
    var id: String
    /// Our unique capture reference.
    var reference: String
    var amount: Int64

    enum CodingKeys: String, CodingKey {
        case id
        case reference
        case amount
    }
}

/// Body of `POST /v1/cancels`.
struct CitconCancelRequest: Codable, Sendable, Equatable {
    /// Citcon's charge id.
    var id: String
    /// Our unique cancel reference.
    var reference: String
    /// The charge's own reference.
    var transactionReference: String

    enum CodingKeys: String, CodingKey {
        case id
        case reference
        case transactionReference = "transaction_reference"
    }
}

/// Body of `POST /v1/refunds`.
struct CitconRefundRequest: Codable, Sendable, Equatable {
    /// Citcon's id of the captured charge.
    var id: String
    /// Our unique refund reference.
    var reference: String
    var amount: Int64
    var note: String?

    enum CodingKeys: String, CodingKey {
        case id
        case reference
        case amount
        case note
    }
}

/// `data` of a capture, cancel or refund answer.
struct CitconOperationData: Codable, Sendable, Equatable {
    var id: String
    var object: String?
    var reference: String?
    var transactionId: String?
    var amount: Int64?
    var amountRefunded: Int64?
    var currency: String?
    var status: String?
    var timeCreated: Int64?
    var timeCompleted: Int64?

    enum CodingKeys: String, CodingKey {
        case id
        case object
        case reference
        case transactionId = "transaction_id"
        case amount
        case amountRefunded = "amount_refunded"
        case currency
        case status
        case timeCreated = "time_created"
        case timeCompleted = "time_completed"
    }
}

// MARK: - IPN

/// The field names of an IPN (sent as form fields or as a flat JSON object).
enum CitconIPNField {
    static let id = "id"
    static let transactionType = "transaction_type"
    static let reference = "reference"
    static let amount = "amount"
    static let currency = "currency"
    static let status = "status"
    static let timeCreated = "time_created"
    static let timeCompleted = "time_completed"
    static let paymentMethod = "payment_method"
    static let amountCaptured = "amount_captured"
    static let amountRefunded = "amount_refunded"
    static let fields = "fields"
    static let sign = "sign"
    /// A chargeback's own id, when Citcon sends one beside `id` (undocumented; `id` names the chargeback
    /// otherwise).
    static let chargebackId = "chargeback_id"
    /// A chargeback's response deadline, when Citcon sends one (undocumented).
    static let dueDate = "due_date"
}
