import Foundation
import ProviderKit
import SwitchyardCore
import Testing

@testable import SwitchyardStore

/// The routing outcome ledger under concurrent writers.
extension PostgresStoreTests {
    @Test func concurrentWritersOfOneAttemptRecordItsAnswerOnce() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        try await store.payments.commit(PaymentChanges(payment: payment(tenant, id: "pay_1")))
        var attempt = Attempt(
            id: "att_1", paymentId: "pay_1", tenantId: tenant, accountId: UUID(), pluginId: "p", sequence: 1,
            reason: "first", startedAt: Date())
        // The attempt exists before its answers race, as it does in the server (the create stores it): 16
        // first inserts racing on a new row can trip the (payment_id, sequence) index, which ON CONFLICT (id)
        // does not arbitrate.
        try await store.payments.commit(PaymentChanges(attempts: [attempt]))
        attempt.finishedAt = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<16 {
                var write = attempt
                write.outcome = n % 2 == 0 ? .authorized : .succeeded
                group.addTask { try await store.payments.commit(PaymentChanges(attempts: [write])) }
            }
            try await group.waitForAll()
        }
        let rows = try await store.pool.withConnection { c in
            try await c.query("SELECT count(*) AS n FROM routing_outcomes WHERE attempt_id = 'att_1'").rows
        }
        #expect(try rows.first?.int64("n") == 1)
        let stats = try await store.routing.authorizationStats(
            tenant: tenant, window: AuthorizationStatsWindow(attempts: 200, since: Date(timeIntervalSince1970: 0)))
        #expect(stats.map(\.samples) == [1, 1])
        #expect(stats.map(\.country) == [nil, "US"])
    }
}
