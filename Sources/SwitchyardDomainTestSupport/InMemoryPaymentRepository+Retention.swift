import Foundation
import SwitchyardCore

extension InMemoryPaymentRepository {
    /// Deletes up to `limit` `Idempotency-Key`s answered before `cutoff`, oldest first, as the store's
    /// retention does (a key not answered is kept); returns how many.
    func deleteAnsweredKeys(before cutoff: Date, limit: Int) -> Int {
        transact { state in
            let doomed = state.keys.compactMap { id, row in row.completedAt.map { (id, $0) } }
                .filter { $0.1 < cutoff }.sorted { $0.1 < $1.1 }.prefix(max(0, limit))
            for (id, _) in doomed { state.keys[id] = nil }
            return doomed.count
        }
    }

    /// Whether the payment `id` exists and has not reached a final status.
    func isOpenPayment(_ id: String) -> Bool {
        transact { state in state.payments[id].map { !$0.payment.status.isFinal } ?? false }
    }

    /// Whether `tenant` holds `key` (answered or not), for assertions.
    public func holdsIdempotencyKey(tenant: UUID, key: String) -> Bool {
        transact { $0.keys[KeyID(tenant: tenant, key: key)] != nil }
    }
}
