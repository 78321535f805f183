import Foundation

/// What the first request under an `Idempotency-Key` answered, as stored for its replays: the resource it
/// answered with (rendered again from its current record), or the error it answered with. Never the bytes
/// of a response, except for keys answered before such outcomes were stored.
public enum IdempotentOutcome: Sendable, Equatable {
    /// A resource: the one the request created, or the one it acted on.
    case resource(IdempotentResource)
    /// An error, with what points at its cause (`param`, `decline_code`, `provider_code`); `status` is the
    /// HTTP status it was answered with, when it was recorded (nil: the code's own status).
    case failure(CoreError, status: Int?)
    /// A response stored as its status and body by an earlier version, replayed as it is.
    case stored(status: Int, body: Data)

    /// A created payment.
    public static func createdPayment(_ id: String) -> IdempotentOutcome {
        .resource(IdempotentResource(kind: .payment, id: id, created: true))
    }

    /// `error`, as a create under a key stores it.
    public static func failure(_ error: CoreError) -> IdempotentOutcome {
        .failure(error, status: nil)
    }
}

/// A resource a request under an `Idempotency-Key` answered with, named well enough to read it again.
public struct IdempotentResource: Sendable, Equatable {
    /// The kinds of resource a request under a key answers with.
    public enum Kind: String, Sendable, CaseIterable {
        case payment
        case refund
        case paymentMethod = "payment_method"
    }

    public var kind: Kind
    public var id: String
    /// The resource it belongs to, when its id alone does not find it (a payment method's customer).
    public var parent: String?
    /// Whether the request created it (answered `201`) rather than acted on it (`200`).
    public var created: Bool

    public init(kind: Kind, id: String, parent: String? = nil, created: Bool) {
        self.kind = kind
        self.id = id
        self.parent = parent
        self.created = created
    }
}
