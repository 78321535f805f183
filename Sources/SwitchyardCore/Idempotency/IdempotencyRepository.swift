import Foundation

/// Storage of `Idempotency-Key` claims held under a lease (see ``IdempotencyClaim``), per tenant.
public protocol IdempotencyRepository: Sendable {
    /// Claims `key` for `owner` for `lease` seconds: a new key, or one whose previous owner's lease ran
    /// out without a response (taken over atomically: of several retries exactly one resumes).
    func claimIdempotent(tenant: UUID, key: String, requestHash: String, owner: String, lease: TimeInterval)
        async throws -> IdempotencyClaim
    /// Records what the owner of `key` created (a payment or refund id); false when `owner` no longer
    /// owns the key.
    @discardableResult
    func linkIdempotent(tenant: UUID, key: String, owner: String, resourceId: String) async throws -> Bool
    /// Stores what the request under `key` answered; false when `owner` no longer owns it.
    @discardableResult
    func finishIdempotent(tenant: UUID, key: String, owner: String, outcome: IdempotentOutcome) async throws -> Bool
    /// Gives up `owner`'s claim on `key` after a failure with no response to store.
    func releaseIdempotent(tenant: UUID, key: String, owner: String) async throws
}
