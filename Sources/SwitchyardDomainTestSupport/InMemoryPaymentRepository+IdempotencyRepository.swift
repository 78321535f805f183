import Foundation
import SwitchyardCore

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
