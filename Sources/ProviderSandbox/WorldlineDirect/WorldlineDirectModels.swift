import Foundation

/// Status of a payment in the Worldline Direct emulator, with its legacy numeric `statusCode`.
public enum WorldlineDirectPaymentStatus: String, Sendable, Codable {
    /// 3-D Secure challenge pending (`46`).
    case redirected = "REDIRECTED"
    /// Waiting for the issuer's answer (`51`).
    case authorizationRequested = "AUTHORIZATION_REQUESTED"
    /// Authorised, waiting for capture (`5`).
    case pendingCapture = "PENDING_CAPTURE"
    /// Captured (`9`).
    case captured = "CAPTURED"
    /// Declined (`2`).
    case rejected = "REJECTED"
    /// Authorised, then cancelled (`6`).
    case cancelled = "CANCELLED"
    /// Captured, then refunded in full (`8`).
    case refunded = "REFUNDED"

    /// The legacy numeric status (`statusOutput.statusCode`).
    public var statusCode: Int {
        switch self {
        case .redirected: 46
        case .authorizationRequested: 51
        case .pendingCapture: 5
        case .captured: 9
        case .rejected: 2
        case .cancelled: 6
        case .refunded: 8
        }
    }

    /// `statusOutput.statusCategory`.
    var category: String {
        switch self {
        case .redirected: "PENDING_PAYMENT"
        case .authorizationRequested: "PENDING_CONNECT_OR_3RD_PARTY"
        case .pendingCapture: "PENDING_MERCHANT"
        case .captured: "COMPLETED"
        case .rejected: "UNSUCCESSFUL"
        case .cancelled: "UNSUCCESSFUL"
        case .refunded: "REFUNDED"
        }
    }

    /// The webhook event type announcing this status.
    var eventType: String {
        switch self {
        case .redirected: "payment.redirected"
        case .authorizationRequested: "payment.authorization_requested"
        case .pendingCapture: "payment.pending_capture"
        case .captured: "payment.captured"
        case .rejected: "payment.rejected"
        case .cancelled: "payment.cancelled"
        case .refunded: "payment.refunded"
        }
    }
}

/// One operation on a payment (authorisation, capture, cancel, refund).
public struct WorldlineDirectOperation: Sendable, Codable, Equatable {
    /// Operation id (the refund id for refunds, the capture id for captures).
    public var id: String
    /// `AUTHORIZATION`, `CAPTURE`, `CANCEL` or `REFUND`.
    public var type: String
    /// Amount in minor units.
    public var amount: Int64
    /// `operationReferences.merchantReference` of the request, when given.
    public var merchantReference: String?
    /// When the operation happened (sandbox clock).
    public var time: Date
}

/// A payment held by the Worldline Direct emulator.
public struct WorldlineDirectPayment: Sendable, Codable, Equatable {
    /// Payment id, e.g. `3066019730_0`.
    public var id: String
    /// Merchant the payment belongs to.
    public var merchantId: String
    /// Current status.
    public var status: WorldlineDirectPaymentStatus
    /// Authorised amount in minor units.
    public var amount: Int64
    /// ISO 4217 currency.
    public var currency: String
    /// `SALE`, `FINAL_AUTHORIZATION` or `PRE_AUTHORIZATION`.
    public var authorizationMode: String
    /// `order.references.merchantReference`, when given.
    public var merchantReference: String?
    /// Masked card number, e.g. `************0026`.
    public var maskedCardNumber: String
    /// First six digits of the card.
    public var bin: String
    /// Card expiry `MMYY`.
    public var expiryDate: String
    /// Payment product (1 Visa, 2 American Express, 3 Mastercard).
    public var paymentProductId: Int
    /// Whether the card came from `encryptedCustomerInput`.
    public var encrypted: Bool
    /// Amount captured so far.
    public var amountCaptured: Int64
    /// Amount refunded so far.
    public var amountRefunded: Int64
    /// Where the shopper returns after a 3-D Secure challenge.
    public var returnURL: String?
    /// Where this payment's webhooks go, when anywhere.
    public var webhookURL: String?
    /// Operations so far, oldest first.
    public var operations: [WorldlineDirectOperation]
    /// Creation time (sandbox clock).
    public var createdAt: Date
    /// Time of the last status change (sandbox clock).
    public var updatedAt: Date
}

/// A money movement recorded by the Worldline Direct emulator.
public struct WorldlineDirectLedgerEntry: Sendable, Codable, Equatable {
    /// `authorization`, `capture`, `cancel` or `refund`.
    public var kind: String
    /// Merchant the movement belongs to.
    public var merchantId: String
    /// The payment concerned.
    public var paymentId: String
    /// The operation id (capture or refund id), equal to the payment id for authorisations and cancels.
    public var operationId: String
    /// Amount in minor units.
    public var amount: Int64
    /// ISO 4217 currency.
    public var currency: String
    /// When it happened (sandbox clock).
    public var time: Date
}

/// Card data as the emulator reads it from `card` or from the decrypted `paymentValues`.
public struct WorldlineDirectCardInput: Sendable, Equatable {
    /// Card number (digits only).
    public var cardNumber: String
    /// Expiry `MMYY`.
    public var expiryDate: String
    /// Security code.
    public var cvv: String?
    /// Cardholder name.
    public var cardholderName: String?

    /// Creates card data.
    public init(cardNumber: String, expiryDate: String, cvv: String? = nil, cardholderName: String? = nil) {
        self.cardNumber = cardNumber
        self.expiryDate = expiryDate
        self.cvv = cvv
        self.cardholderName = cardholderName
    }
}

/// The emulator's test cards. Any other card number that passes the Luhn check is authorised.
public enum WorldlineDirectTestCard {
    /// Authorised: `SALE` → `CAPTURED` (9), `FINAL_AUTHORIZATION`/`PRE_AUTHORIZATION` → `PENDING_CAPTURE` (5).
    public static let authorised = "4012000033330026"
    /// Declined by the issuer: HTTP 402 with `paymentResult.payment.status` `REJECTED` (2).
    public static let declined = "4012003360932265"
    /// 3-D Secure challenge: `REDIRECTED` (46) with `merchantAction.actionType` `REDIRECT`; the redirect
    /// URL (`/_sandbox/worldline-direct/challenge/{paymentId}?result=success|failure`) completes it.
    public static let challenge = "4012001775445550"
    /// Left pending: `AUTHORIZATION_REQUESTED` (51) until `POST /_sandbox/worldline-direct/payments/{id}/resolve`.
    public static let pending = "4012004040524514"
}
