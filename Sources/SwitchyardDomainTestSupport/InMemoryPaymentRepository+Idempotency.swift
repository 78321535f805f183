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

/// `Idempotency-Key` claims under a lease, as the HTTP middleware makes them for every mutating route
/// other than a payment create (whose claim is made inside ``begin``), with the PostgreSQL store's rules.
extension InMemoryPaymentRepository: IdempotencyRepository {
    public func claimIdempotent(tenant: UUID, key: String, requestHash: String, owner: String, lease: TimeInterval)
        async throws -> IdempotencyClaim
    {
        try outage.check()
        let now = clock()
        return transact { state in
            state.claim(
                tenant: tenant, key: key, requestHash: requestHash, owner: owner, now: now,
                until: now.addingTimeInterval(lease))
        }
    }

    @discardableResult
    public func linkIdempotent(tenant: UUID, key: String, owner: String, resourceId: String) async throws -> Bool {
        try outage.check()
        return transact { $0.link(tenant: tenant, key: key, owner: owner, resourceId: resourceId) }
    }

    @discardableResult
    public func finishIdempotent(tenant: UUID, key: String, owner: String, outcome: IdempotentOutcome)
        async throws -> Bool
    {
        try outage.check()
        let now = clock()
        return transact { $0.finish(tenant: tenant, key: key, owner: owner, outcome: outcome, at: now) }
    }

    /// A key under which nothing was created is forgotten; one under which something was created has its
    /// lease ended, so the next retry resumes at once.
    public func releaseIdempotent(tenant: UUID, key: String, owner: String) async throws {
        try outage.check()
        let now = clock()
        transact { state in
            let id = KeyID(tenant: tenant, key: key)
            guard let row = state.keys[id], row.owner == owner, row.outcome == nil else { return }
            if row.resourceId == nil {
                state.keys[id] = nil
            } else {
                state.keys[id]?.lockedUntil = now.addingTimeInterval(-0.001)
            }
        }
    }
}

/// The janitor's settlement of keys left in progress past their lease, with the PostgreSQL store's rules:
/// oldest lease first, at most `limit`, each answered with the resource it names or else forgotten.
extension InMemoryPaymentRepository: IdempotencyKeyMaintenance {
    public func settleExpiredKeys(now: Date, limit: Int) async throws -> ExpiredKeySettlement {
        try outage.check()
        return transact { state in
            let expired = state.keys
                .filter { $0.value.outcome == nil && ($0.value.lockedUntil.map { $0 < now } ?? false) }
                .sorted { ($0.value.lockedUntil ?? now) < ($1.value.lockedUntil ?? now) }
                .prefix(max(0, limit))
            var settled = ExpiredKeySettlement()
            for (id, row) in expired {
                if let resource = IdempotentResource.settled(key: id.key, resourceId: row.resourceId),
                    let owner = row.owner
                {
                    let finished = state.finish(
                        tenant: id.tenant, key: id.key, owner: owner, outcome: .resource(resource), at: now)
                    if finished { settled.completed += 1 }
                } else {
                    state.keys[id] = nil
                    settled.released += 1
                }
            }
            return settled
        }
    }
}
