import Foundation

/// What the first request under an `Idempotency-Key` answered, as stored for its replays: the resource it
/// answered with (rendered again from its current record), or the error it answered with. Never the bytes
/// of a response.
public enum IdempotentOutcome: Sendable, Equatable {
    /// A resource: the one the request created, or the one it acted on.
    case resource(IdempotentResource)
    /// The merchant's error, with what points at its cause (`param`, `decline_code`, `provider_code`).
    case failure(CoreError)

    /// A created payment.
    public static func createdPayment(_ id: String) -> IdempotentOutcome {
        .resource(IdempotentResource(kind: .payment, id: id, created: true))
    }

    /// The id of the resource answered with; nil for an error.
    public var resourceId: String? {
        guard case .resource(let resource) = self else { return nil }
        return resource.id
    }
}

/// A resource a request under an `Idempotency-Key` answered with, named well enough to read it again.
public struct IdempotentResource: Sendable, Equatable {
    /// The kinds of resource a request under a key answers with.
    public enum Kind: String, Sendable, CaseIterable {
        case payment
        case refund
        case paymentMethod = "payment_method"
        case dispute
    }

    public var kind: Kind
    public var id: String
    /// The resource it belongs to, when its id alone does not find it (a payment method's customer).
    public var parent: String?
    /// Whether the request created it rather than acted on it.
    public var created: Bool

    public init(kind: Kind, id: String, parent: String? = nil, created: Bool) {
        self.kind = kind
        self.id = id
        self.parent = parent
        self.created = created
    }
}
