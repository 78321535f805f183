import Foundation

/// Status of a payment in the Antom emulator (`paymentStatus` of `inquiryPayment`).
public enum AntomPaymentStatus: String, Sendable, Codable {
    /// Waiting for the user (payment session) or for the wallet's answer (`U PAYMENT_IN_PROCESS`).
    case processing = "PROCESSING"
    /// Card authorised, not yet captured (`captureMode` MANUAL).
    case pending = "PENDING"
    /// Paid (captured).
    case success = "SUCCESS"
    /// Declined or closed.
    case fail = "FAIL"
    /// Cancelled by the merchant.
    case cancelled = "CANCELLED"
}

/// A capture, refund or cancellation of a payment (`transactions[]` of `inquiryPayment`).
public struct AntomTransaction: Sendable, Codable, Equatable {
    /// `CAPTURE`, `REFUND` or `CANCEL`.
    public var type: String
    /// `SUCCESS` (the emulator settles operations at once).
    public var status: String
    /// The merchant's request id (`captureRequestId`, `refundRequestId`), nil for a cancellation.
    public var requestId: String?
    /// Antom's id (`captureId`, `refundId`; the payment id for a cancellation).
    public var id: String
    /// Amount in minor units.
    public var amount: Int64
    /// ISO 4217 currency.
    public var currency: String
    /// When it happened (sandbox clock).
    public var time: Date
}

/// A payment held by the Antom emulator.
public struct AntomPayment: Sendable, Codable, Equatable {
    /// Antom's payment id.
    public var paymentId: String
    /// The merchant's `paymentRequestId`.
    public var paymentRequestId: String
    /// The merchant's client id.
    public var clientId: String
    /// `AGREEMENT_PAYMENT` (wallet) or `CASHIER_PAYMENT` (card).
    public var productCode: String
    /// The wallet (e.g. `GCASH`) or `CARD`.
    public var paymentMethodType: String
    /// Amount in minor units.
    public var amount: Int64
    /// ISO 4217 currency.
    public var currency: String
    /// Current status.
    public var status: AntomPaymentStatus
    /// `paymentResultCode` (e.g. `SUCCESS`, `USER_BALANCE_NOT_ENOUGH`, `PAYMENT_IN_PROCESS`).
    public var resultCode: String
    /// `paymentResultMessage`.
    public var resultMessage: String
    /// `AUTOMATIC` or `MANUAL` for card payments, nil for wallets.
    public var captureMode: String?
    /// Amount captured so far (the whole amount once a wallet payment succeeded).
    public var capturedAmount: Int64
    /// Amount refunded so far.
    public var refundedAmount: Int64
    /// Creation time (sandbox clock).
    public var createdAt: Date
    /// When the payment succeeded or was authorised.
    public var paymentTime: Date?
    /// When it was cancelled.
    public var cancelTime: Date?
    /// The payment's `paymentNotifyUrl`.
    public var notifyURL: String?
    /// The payment session it belongs to, if it was created by `createPaymentSession`.
    public var paymentSessionId: String?
    /// Captures, refunds and cancellations, oldest first.
    public var transactions: [AntomTransaction]
}

/// A money movement recorded by the Antom emulator.
public struct AntomLedgerEntry: Sendable, Codable, Equatable {
    /// `charge` (paid at once), `authorization`, `capture`, `refund` or `void` (money released or returned
    /// by a cancellation).
    public var kind: String
    /// The merchant's client id.
    public var merchant: String
    /// The payment concerned.
    public var paymentId: String
    /// The capture or refund id, the payment id otherwise.
    public var operationId: String
    /// Amount in minor units.
    public var amount: Int64
    /// ISO 4217 currency.
    public var currency: String
    /// When it happened (sandbox clock).
    public var time: Date
}

/// An EasySafePay access token issued by the emulator.
public struct AntomAccessToken: Sendable, Codable, Equatable {
    /// `ACTIVE` or `CANCELED`.
    public enum Status: String, Sendable, Codable {
        /// Usable in `pay`.
        case active = "ACTIVE"
        /// Revoked; `pay` answers `F INVALID_ACCESS_TOKEN`.
        case canceled = "CANCELED"
    }

    /// The token (treat as a secret).
    public var accessToken: String
    /// The merchant's client id.
    public var clientId: String
    /// The wallet it pays with.
    public var paymentMethodType: String
    /// The merchant's `agreementInfo.authState`.
    public var authState: String
    /// `agreementInfo.userLoginId`, when given.
    public var userLoginId: String?
    /// Current status.
    public var status: Status
    /// Where its `notifyAuthorization` messages go.
    public var notifyURL: String?
    /// Creation time (sandbox clock).
    public var createdAt: Date
}

/// What completing a payment session did.
public struct AntomSessionCompletion: Sendable, Codable, Equatable {
    /// The session's payment.
    public var paymentId: String
    /// Its `paymentRequestId`.
    public var paymentRequestId: String
    /// The payment's status after the decision.
    public var status: AntomPaymentStatus
    /// The payment's result code.
    public var resultCode: String
    /// The access token created, when the session asked for one and the user approved.
    public var accessToken: String?
    /// The session's `agreementInfo.authState`, when a token was created.
    public var authState: String?
}

/// Card data entered in the vaulting page (played by the admin API).
public struct AntomCardInput: Sendable, Codable, Equatable {
    /// Card number, digits only.
    public var cardNumber: String
    /// Expiry month, `MM` (or `M`).
    public var expiryMonth: String
    /// Expiry year, `YY` or `YYYY`.
    public var expiryYear: String
    /// Security code.
    public var cvv: String?
    /// Cardholder name.
    public var holderName: String?

    /// Creates card data.
    public init(
        cardNumber: String, expiryMonth: String, expiryYear: String, cvv: String? = nil, holderName: String? = nil
    ) {
        self.cardNumber = cardNumber
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
        self.cvv = cvv
        self.holderName = holderName
    }
}

/// What completing a vaulting session did.
public struct AntomVaultingCompletion: Sendable, Codable, Equatable {
    /// The merchant's `vaultingRequestId`.
    public var vaultingRequestId: String
    /// The session completed.
    public var vaultingSessionId: String
    /// `SUCCESS` or `FAIL`.
    public var vaultingStatus: String
    /// `SUCCESS` or the failure code.
    public var resultCode: String
    /// The card token, when vaulted (treat as a secret).
    public var cardToken: String?
    /// Masked card number, e.g. `************0768`.
    public var maskedCardNo: String?
    /// Card brand from the BIN, e.g. `VISA`.
    public var brand: String?
}

/// The emulator's test values.
public enum AntomTestCard {
    /// Visa, vaulted and paid normally.
    public static let visa = "4054695723100768"
    /// Mastercard, vaulted and paid normally.
    public static let mastercard = "5162774114974622"
    /// Vaulting fails (or, with ``AntomSandboxConfiguration/failureCardVaults``, payments decline `RISK_REJECT`).
    public static let failure = "4054692760174822"
    /// Every card the documentation lists as a sandbox success card.
    public static let successCards = [
        visa, mastercard, "9490220011669217", "4294097400915107", "4006055482525268", "4600729331819383",
        "4310377720003234",
    ]
    /// `paymentAmount.value % 1000` that is declined `F USER_BALANCE_NOT_ENOUGH`.
    public static let declinedAmountSuffix: Int64 = 402
    /// `paymentAmount.value % 1000` that stays PROCESSING (`U PAYMENT_IN_PROCESS`) until resolved.
    public static let processingAmountSuffix: Int64 = 408
}
