import Foundation

/// Kind of a Citcon access token.
public enum CitconTokenKind: String, Sendable, Codable, CaseIterable {
    /// Server token: every permission.
    case server
    /// Client token (mobile SDK): charge, confirm and inquiry only.
    case client
}

/// Status of a charge held by the Citcon emulator (API spelling).
public enum CitconChargeStatus: String, Sendable, Codable {
    /// Created, waiting for the SDK's confirm step.
    case initiated
    /// Confirmed, but the outcome stays open (magic amount `…408`).
    case pending
    /// Authorised, waiting for a capture (`auto_capture` false).
    case authorized
    /// Captured (in full or in part) after an authorisation.
    case captured
    /// Confirmed and captured at once (`auto_capture` true).
    case succeeded
    /// Declined at confirm.
    case failed
    /// Cancelled before any capture.
    case canceled
    /// Not confirmed within the pending-charge lifetime.
    case expired
}

/// A charge as held by the Citcon emulator.
public struct CitconCharge: Sendable, Codable, Equatable {
    /// Citcon's id (22 digits).
    public internal(set) var id: String
    /// Token of the pending charge, used by the confirm step (32 hex digits).
    public internal(set) var chargeToken: String
    /// Merchant owning the charge.
    public internal(set) var merchant: String
    /// The merchant's reference (unique per merchant).
    public internal(set) var reference: String
    /// Amount in minor units.
    public internal(set) var amount: Int64
    /// ISO 4217 currency code.
    public internal(set) var currency: String
    /// ISO 3166 alpha-2 country code.
    public internal(set) var country: String
    /// Whether a successful confirm captures at once.
    public internal(set) var autoCapture: Bool
    /// Current status.
    public internal(set) var status: CitconChargeStatus
    /// Payment method given at confirm (e.g. `alipay`).
    public internal(set) var paymentMethod: String?
    /// Total captured, minor units.
    public internal(set) var amountCaptured: Int64
    /// Total refunded, minor units.
    public internal(set) var amountRefunded: Int64
    /// Citcon error code of a failed charge (e.g. `4021`).
    public internal(set) var failureCode: String?
    /// Message of a failed charge.
    public internal(set) var failureMessage: String?
    /// IPN URL given at creation.
    public internal(set) var ipnURL: String?
    /// Free-text note given at creation.
    public internal(set) var note: String?
    /// Creation time.
    public internal(set) var createdAt: Date
    /// When an unconfirmed charge expires.
    public internal(set) var expiresAt: Date
    /// Time of the (first) capture.
    public internal(set) var capturedAt: Date?
    /// Time of the cancel.
    public internal(set) var canceledAt: Date?
}

/// One money movement performed by the Citcon emulator.
public struct CitconLedgerEntry: Sendable, Codable, Equatable {
    /// Kind of movement.
    public enum Kind: String, Sendable, Codable {
        /// A successful (captured) or authorised confirm of a charge.
        case charge
        /// A capture of an authorised charge.
        case capture
        /// A refund of captured money.
        case refund
        /// A cancel; `amount` is the released authorisation (0 for a charge never confirmed).
        case cancel
    }

    /// Kind of movement.
    public var kind: Kind
    /// Merchant concerned.
    public var merchant: String
    /// Citcon id of the charge concerned.
    public var chargeID: String
    /// Id of the capture, refund or cancel object (the charge id for `charge`).
    public var operationID: String
    /// Reference of the operation (the charge's reference for `charge`, else the operation's own).
    public var reference: String
    /// Reference of the charge concerned.
    public var chargeReference: String
    /// Amount in minor units.
    public var amount: Int64
    /// ISO 4217 currency code.
    public var currency: String
    /// When it happened (sandbox clock).
    public var time: Date
}

/// A failure answered by the Citcon emulator: HTTP status plus Citcon's 4-digit code.
public struct CitconSandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// HTTP status of the answer.
    public var httpStatus: Int
    /// Citcon error code, e.g. `4100`.
    public var code: String
    /// Human-readable message (never contains credentials).
    public var message: String

    /// Creates an error.
    public init(httpStatus: Int, code: String, message: String) {
        self.httpStatus = httpStatus
        self.code = code
        self.message = message
    }

    /// `citcon <status> <code>: <message>`.
    public var description: String { "citcon \(httpStatus) \(code): \(message)" }

    static let unauthorized = Self(httpStatus: 401, code: "4010", message: "invalid or expired token")
    static let notDisputable = Self(httpStatus: 400, code: "4300", message: "only a paid charge can be charged back")
    static let unknownChargebackStatus = Self(
        httpStatus: 400, code: "4301",
        message: "status must be one of Notification of Claim, Request For Information, Information Supplied, "
            + "Lost, Won, Case Closed")
    static let notFound = Self(httpStatus: 404, code: "4004", message: "transaction not found")
    static let duplicate = Self(httpStatus: 400, code: "4100", message: "duplicate request")
    static let alreadyConfirmed = Self(httpStatus: 400, code: "4101", message: "charge already confirmed")
    static let chargeExpired = Self(httpStatus: 400, code: "4102", message: "charge expired")
    static let notAuthorized = Self(httpStatus: 400, code: "4201", message: "charge not authorized")
    static let overCapture = Self(httpStatus: 400, code: "4203", message: "amount exceeds authorized remainder")
    static let notCancelable = Self(httpStatus: 400, code: "4205", message: "charge cannot be canceled")
    static let notCaptured = Self(httpStatus: 400, code: "4206", message: "charge not captured")
    static let overRefund = Self(httpStatus: 400, code: "4208", message: "amount exceeds refundable remainder")
    static let internalError = Self(httpStatus: 500, code: "5000", message: "internal error")
    static let forbidden = Self(httpStatus: 403, code: "4030", message: "token lacks permission")

    static func invalid(_ message: String) -> Self {
        Self(httpStatus: 400, code: "4000", message: message)
    }
}
