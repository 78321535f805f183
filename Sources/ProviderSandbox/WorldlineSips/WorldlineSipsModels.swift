import Foundation

/// `transactionStatus` of a transaction held by the Sips emulator.
public enum WorldlineSipsTransactionStatus: String, Sendable, Codable, CaseIterable {
    /// Authorised (`VALIDATION`), waiting for `cashManagement/validate`.
    case toValidate = "TO_VALIDATE"
    /// Authorised, captured automatically at the capture day (counts as captured).
    case toCapture = "TO_CAPTURE"
    /// Captured.
    case captured = "CAPTURED"
    /// Cancelled before capture.
    case cancelled = "CANCELLED"
    /// Declined.
    case refused = "REFUSED"
    /// Answered `60`; waits for the acquirer (resolved through the admin surface).
    case pending = "PENDING"
    /// Fully refunded.
    case credited = "CREDITED"
}

/// A transaction held by the Sips emulator, keyed by merchant and `transactionReference`.
public struct WorldlineSipsTransaction: Sendable, Codable, Equatable {
    /// The merchant's id.
    public var merchantId: String
    /// The merchant's `transactionReference`.
    public var transactionReference: String
    /// Current status.
    public var status: WorldlineSipsTransactionStatus
    /// `AUTHOR_CAPTURE` or `VALIDATION`.
    public var captureMode: String
    /// `captureDay` of the order.
    public var captureDay: Int64
    /// The ordered amount (minor units).
    public var originAmount: Int64
    /// What is still authorised or captured (minor units).
    public var currentAmount: Int64
    /// Total captured (minor units).
    public var capturedAmount: Int64
    /// Total refunded (minor units).
    public var refundedAmount: Int64
    /// ISO 4217 numeric code, e.g. `978`.
    public var currencyCode: String
    /// ISO 4217 alphabetic code, e.g. `EUR`.
    public var currency: String
    /// `responseCode` of the order (or of its resolution).
    public var responseCode: String
    /// `acquirerResponseCode` of the order, if any.
    public var acquirerResponseCode: String?
    /// Authorisation id, when authorised.
    public var authorisationId: String?
    /// Card brand, e.g. `VISA`.
    public var paymentMeanBrand: String
    /// Masked card number: first 4 and last 2 digits, `#` between.
    public var maskedPan: String
    /// Card expiry, `yyyyMM`.
    public var panExpiryDate: String
    /// `SUCCESS`, `FAILURE` (3-D Secure) or `NO_AUTHENT`.
    public var holderAuthentStatus: String
    /// `orderChannel` of the init.
    public var orderChannel: String
    /// The init's `returnContext`.
    public var returnContext: String?
    /// The init's `customerId`.
    public var customerId: String?
    /// The init's `orderId`.
    public var orderId: String?
    /// The wallet the order paid with.
    public var merchantWalletId: String?
    /// Where automatic responses go.
    public var automaticResponseUrl: String?
    /// When the order was processed (sandbox clock).
    public var transactionDateTime: Date
    /// Last operation, e.g. `CREDIT_CARD`, `VALIDATE`, `CANCEL`, `REFUND`.
    public var lastOperationName: String
    /// When the last operation happened (sandbox clock).
    public var lastOperationDateTime: Date
}

/// A money movement recorded by the Sips emulator: `authorization` (VALIDATION order accepted),
/// `charge` (AUTHOR_CAPTURE order accepted), `capture` (validate), `void` (cancel) or `refund`.
public struct WorldlineSipsLedgerEntry: Sendable, Codable, Equatable {
    /// What moved.
    public var kind: String
    /// The merchant's id.
    public var merchant: String
    /// The transaction concerned.
    public var transactionReference: String
    /// Amount in minor units.
    public var amount: Int64
    /// ISO 4217 alphabetic code, e.g. `EUR`.
    public var currency: String
    /// When it happened (sandbox clock).
    public var time: Date
}

/// A card registered in a wallet (the card number itself is never exposed).
public struct WorldlineSipsPaymentMean: Sendable, Codable, Equatable {
    /// Numeric id of the card in the wallet.
    public var paymentMeanId: String
    /// The alias given when the card was added.
    public var paymentMeanAlias: String
    /// Card brand, e.g. `VISA`.
    public var paymentMeanBrand: String
    /// Masked card number.
    public var maskedPan: String
    /// Card expiry, `yyyyMM`.
    public var panExpiryDate: String
}

/// A merchant's customer wallet.
public struct WorldlineSipsWallet: Sendable, Codable, Equatable {
    /// The merchant's id.
    public var merchantId: String
    /// The merchant's wallet id.
    public var merchantWalletId: String
    /// When the first card was added (sandbox clock).
    public var createdAt: Date
    /// When a card was last added or deleted (sandbox clock).
    public var lastActionAt: Date
    /// The registered cards, oldest first.
    public var paymentMeans: [WorldlineSipsPaymentMean]
}

/// The emulator's test values.
public enum WorldlineSipsTestCard {
    /// VISA, accepted.
    public static let visa = "4100000000000000"
    /// MASTERCARD, accepted.
    public static let mastercard = "5100000000000000"
    /// Declined `05` (acquirer `05`).
    public static let declined = "4100000000000010"
    /// Enrolled in 3-D Secure: `05` with acquirer `A1` without authentication, decided by the ACS step
    /// with it.
    public static let enrolled = "4100000000000101"
    /// The four cards above. They do not pass the Luhn check, so the emulator recognises them first;
    /// any other number is accepted when it passes the check and refused `14` otherwise.
    public static let all: Set<String> = [visa, mastercard, declined, enrolled]
    /// `amount % 1000` declined `05` with acquirer `51`.
    public static let declinedAmountSuffix: Int64 = 402
    /// `amount % 1000` answered `60` and left `PENDING` until resolved.
    public static let pendingAmountSuffix: Int64 = 460
}

/// An error of the emulator's Swift and admin surface.
public struct WorldlineSipsSandboxError: Error, Sendable, Equatable, Codable {
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

    static func invalidConfiguration(_ message: String) -> Self {
        Self(code: "INVALID_CONFIGURATION", message: message, httpStatus: 400)
    }
    static func invalidRequest(_ message: String) -> Self {
        Self(code: "INVALID_REQUEST", message: message, httpStatus: 400)
    }
    static let transactionNotFound = Self(
        code: "TRANSACTION_NOT_FOUND", message: "unknown transaction", httpStatus: 404)
    static let transactionNotPending = Self(
        code: "TRANSACTION_NOT_PENDING", message: "the transaction is not PENDING", httpStatus: 409)
    static let authenticationNotFound = Self(
        code: "AUTHENTICATION_NOT_FOUND", message: "unknown paReqMessage", httpStatus: 404)
    static let keyUnavailable = Self(
        code: "KEY_UNAVAILABLE", message: "the sandbox key could not be generated", httpStatus: 500)
}

/// ISO 4217 currencies the emulator accepts, by numeric code.
enum WorldlineSipsCurrency {
    static let alphaByNumeric: [String: String] = [
        "978": "EUR", "840": "USD", "826": "GBP", "756": "CHF", "392": "JPY", "752": "SEK", "208": "DKK",
        "578": "NOK", "985": "PLN", "036": "AUD", "124": "CAD",
    ]
}
