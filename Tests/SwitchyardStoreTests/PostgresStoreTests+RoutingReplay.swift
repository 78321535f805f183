import Foundation
import ProviderKit
import SwitchyardCore
import Testing

@testable import SwitchyardStore

/// What the routing outcome ledger logs for replay, and how a replay reads it.
extension PostgresStoreTests {
    func answered(_ id: String, payment: String, tenant: UUID, account: UUID, sequence: Int, _ kind: Outcome.Kind)
        -> Attempt
    {
        var attempt = Attempt(
            id: id, paymentId: payment, tenantId: tenant, accountId: account, pluginId: "p", sequence: sequence,
            reason: "r", startedAt: Date())
        attempt.outcome = kind
        attempt.finishedAt = Date()
        return attempt
    }

    @Test func theFirstAttemptIsLoggedWithItsPropensityAmountAndFee() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        let (a, b) = (UUID(), UUID())
        var routed = payment(tenant, id: "pay_routed")
        routed.routing = RoutingDecision(
            ruleId: UUID(), ruleName: "split", candidates: [a, b], skipped: [], weighted: true, strategy: .weighted,
            ranking: [
                .init(accountId: a, position: 1, fee: 42, reason: "weighted draw"),
                .init(accountId: b, position: 2, reason: "fallback after the weighted draw"),
            ],
            propensities: [.init(accountId: a, probability: 0.7), .init(accountId: b, probability: 0.3)])
        // Routed without a rule (no propensities): never replayed.
        var stored = payment(tenant, id: "pay_stored")
        stored.routing = RoutingDecision(ruleId: nil, ruleName: nil, candidates: [a], skipped: [])
        try await store.payments.commit(PaymentChanges(payment: routed))
        try await store.payments.commit(PaymentChanges(payment: stored))
        try await store.payments.commit(
            PaymentChanges(attempts: [
                answered("att_1", payment: "pay_routed", tenant: tenant, account: a, sequence: 1, .declined),
                answered("att_2", payment: "pay_routed", tenant: tenant, account: b, sequence: 2, .authorized),
                answered("att_3", payment: "pay_stored", tenant: tenant, account: a, sequence: 1, .authorized),
            ]))
        let logged = try await store.routing.loggedDecisions(tenant: tenant, window: ReplayWindow(), limit: 10)
        #expect(logged.count == 1)
        let first = try #require(logged.first)
        #expect(first.paymentId == "pay_routed")
        #expect(first.reference == "r-pay_routed")
        #expect(first.accountId == a)
        #expect(first.propensity == 0.7)
        #expect(first.approved == false)
        #expect(first.amount == 500)
        #expect(first.fee == 42)
        #expect(first.segment == RoutingSegment(country: "US", currency: "USD", method: "alipay"))
        // The window bounds what is read; another tenant reads nothing of it.
        let later = ReplayWindow(from: Date().addingTimeInterval(60))
        #expect(try await store.routing.loggedDecisions(tenant: tenant, window: later, limit: 10).isEmpty)
        #expect(try await store.routing.loggedDecisions(tenant: tenant, window: ReplayWindow(), limit: 0).isEmpty)
        let other = try await store.tenants.createTenant(name: "U", actor: "test").id
        #expect(try await store.routing.loggedDecisions(tenant: other, window: ReplayWindow(), limit: 10).isEmpty)
        // Every answer still counts in the statistics.
        let stats = try await store.routing.authorizationStats(
            tenant: tenant, window: AuthorizationStatsWindow(attempts: 200, since: Date(timeIntervalSince1970: 0)))
        #expect(stats.filter { $0.country == nil }.map(\.samples).reduce(0, +) == 3)
    }
}
