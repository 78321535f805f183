import Foundation
import SwitchyardCore
import Testing

@testable import SwitchyardStore

/// A key's claim and its answer each commit in their transaction's first round trip, so a session lost
/// with their answer sends them again: the second run must answer as the first did and change nothing.
extension PostgresStoreTests {
    /// A store with one tenant, and a claim of key `k` there.
    private func keyStore() async throws -> (
        store: PostgresStore, tenant: UUID, claim: (String, String) async throws -> IdempotencyClaim
    ) {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        let claim = { (owner: String, hash: String) in
            try await store.idempotencyKeys.claimIdempotent(
                tenant: tenant, key: "k", requestHash: hash, owner: owner, lease: 60)
        }
        return (store, tenant, claim)
    }

    @Test func aNewKeysClaimRunTwiceByItsOwnerStillProceedsAndNoOtherRequestGetsIt() async throws {
        let (_, _, claim) = try await keyStore()
        #expect(try await claim("a", "h") == .proceed)
        #expect(try await claim("a", "h") == .proceed)
        guard case .held = try await claim("b", "h") else {
            Issue.record("another request must find the key held")
            return
        }
        #expect(try await claim("a", "other") == .mismatch)
    }

    @Test func anAnswerRunTwiceAnswersTheSameAndAnAnsweredKeyKeepsIt() async throws {
        let (store, tenant, claim) = try await keyStore()
        let keys = store.idempotencyKeys
        #expect(try await claim("a", "h") == .proceed)
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let answer = try PostgresIdempotencyKeys.finishing(
            key: "k", owner: "a", outcome: .createdPayment("pay_1"), now: at)
        for _ in 0..<2 {
            let stored = try await store.tenantScoped(tenant) { try await $0.query(answer.sql, answer.params) }
            #expect(stored.affectedRows == 1)
        }
        let later = try PostgresIdempotencyKeys.finishing(
            key: "k", owner: "a", outcome: .createdPayment("pay_2"), now: at.addingTimeInterval(1))
        let refused = try await store.tenantScoped(tenant) { try await $0.query(later.sql, later.params) }
        #expect(refused.affectedRows == 0)
        #expect(
            try await !keys.finishIdempotent(tenant: tenant, key: "k", owner: "a", outcome: .createdPayment("pay_3")))
        #expect(try await claim("a", "h") == .replay(.createdPayment("pay_1")))
    }
}
