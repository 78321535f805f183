import Foundation
import SwitchyardCore

/// `Idempotency-Key`s per tenant, with the PostgreSQL store's lease semantics: a request owns the key it
/// claimed until its lease ends, and every later change to the key is conditional on still owning it.
extension InMemoryPaymentRepository.State {
    /// Claims `key` for `owner` until `until`: a new key, or one whose previous owner's lease ran out
    /// without a response (taken over, resuming with what that owner recorded as created).
    mutating func claim(tenant: UUID, key: String, requestHash: String, owner: String, now: Date, until: Date)
        -> IdempotencyClaim
    {
        let id = InMemoryPaymentRepository.KeyID(tenant: tenant, key: key)
        guard var row = keys[id] else {
            keys[id] = .init(requestHash: requestHash, owner: owner, lockedUntil: until)
            return .proceed
        }
        if row.requestHash != requestHash { return .mismatch }
        if let outcome = row.outcome { return .replay(outcome) }
        if let lockedUntil = row.lockedUntil, lockedUntil >= now { return .held(until: lockedUntil) }
        row.owner = owner
        row.lockedUntil = until
        keys[id] = row
        return .resume(resourceId: row.resourceId)
    }

    /// Records what `owner` created under `key`; false when it no longer owns the key.
    @discardableResult
    mutating func link(tenant: UUID, key: String, owner: String, resourceId: String) -> Bool {
        let id = InMemoryPaymentRepository.KeyID(tenant: tenant, key: key)
        guard let row = keys[id], row.owner == owner, row.outcome == nil else { return false }
        keys[id]?.resourceId = resourceId
        return true
    }

    /// Stores what `owner` answered for `key`; false when it no longer owns the key.
    @discardableResult
    mutating func finish(tenant: UUID, key: String, owner: String, outcome: IdempotentOutcome, at now: Date) -> Bool {
        let id = InMemoryPaymentRepository.KeyID(tenant: tenant, key: key)
        guard let row = keys[id], row.owner == owner, row.outcome == nil else { return false }
        keys[id]?.outcome = outcome
        keys[id]?.completedAt = now
        keys[id]?.lockedUntil = nil
        return true
    }
}
