import Foundation
import SwitchyardCore

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
