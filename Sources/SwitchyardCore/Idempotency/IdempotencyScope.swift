import Foundation

/// The `Idempotency-Key` a request runs under, as the operations that honour it take it: the tenant, the
/// key as stored (scoped by method and route), the hash of the request's body, the request that owns the
/// key while it runs and how long it may hold it.
public struct IdempotencyScope: Sendable, Equatable {
    public var tenant: UUID
    /// The key as stored (scoped by method and route).
    public var key: String
    public var requestHash: String
    /// A random id naming this request as the key's owner.
    public var owner: String
    /// How long a claim holds the key, in seconds.
    public var lease: TimeInterval

    public init(tenant: UUID, key: String, requestHash: String, owner: String, lease: TimeInterval) {
        self.tenant = tenant
        self.key = key
        self.requestHash = requestHash
        self.owner = owner
        self.lease = lease
    }

    /// The answer to store for this key: `outcome`, for as long as this request still owns the key.
    public func answer(_ outcome: IdempotentOutcome) -> IdempotentAnswer {
        IdempotentAnswer(key: key, owner: owner, outcome: outcome)
    }
}

/// The outcome a request stores for its `Idempotency-Key` when it ends.
public struct IdempotentAnswer: Sendable, Equatable {
    public var key: String
    public var owner: String
    public var outcome: IdempotentOutcome

    public init(key: String, owner: String, outcome: IdempotentOutcome) {
        self.key = key
        self.owner = owner
        self.outcome = outcome
    }
}
