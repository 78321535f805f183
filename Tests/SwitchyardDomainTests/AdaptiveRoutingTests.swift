import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// Payments routed by an adaptive rule through the payment service, with statistics from a fake.
struct AdaptiveRoutingTests {
    /// Statistics as a settable list, or a read that fails (nil); records the windows it was asked for.
    final class FakeStats: RoutingStatsRepository, @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [AuthorizationStats]? = []
        private var asked: [AuthorizationStatsWindow] = []

        var rows: [AuthorizationStats]? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }

        var windows: [AuthorizationStatsWindow] { lock.withLock { asked } }

        func authorizationStats(tenant: UUID, window: AuthorizationStatsWindow) async throws -> [AuthorizationStats] {
            let rows = lock.withLock {
                asked.append(window)
                return stored
            }
            guard let rows else { throw CoreError(.internalError, "statistics store down") }
            return rows
        }
    }

    let stats = FakeStats()
    let world: DomainWorld

    /// One adaptive rule over two accounts, without exploration; the second account answers far better.
    init() {
        var policy = PlatformPolicy()
        policy.adaptiveRouting.minExplorationShare = 0
        policy.adaptiveRouting.explorationShare = 0
        world = DomainWorld(policy: policy, routingStats: stats)
        stats.rows = [
            AuthorizationStats(
                accountId: world.accounts[0], method: "card", currency: "EUR", approved: 50, declined: 50),
            AuthorizationStats(
                accountId: world.accounts[1], method: "card", currency: "EUR", approved: 95, declined: 5),
        ]
        use(.adaptive)
    }

    func use(_ strategy: RoutingStrategy) {
        world.configuration.setRules(
            [RoutingRule(id: UUID(), name: "adaptive", match: .init(), accounts: world.accounts, strategy: strategy)],
            tenant: world.tenant)
    }

    @Test func theBetterAccountGoesFirstAndTheDecisionSaysWhy() async throws {
        let record = try await world.create(.succeeded())
        #expect(record.payment.status == .succeeded)
        #expect(world.gateway.calls(.authorize).map(\.accountId) == [world.accounts[1]])
        let routing = try #require(record.payment.routing)
        #expect(routing.strategy == .adaptive)
        #expect(routing.candidates == [world.accounts[1], world.accounts[0]])
        #expect(routing.ranking.map(\.accountId) == [world.accounts[1], world.accounts[0]])
        #expect(routing.ranking.first?.reason == "highest lower bound")
        #expect(routing.ranking.first?.samples == 100)
        #expect(stats.windows.count == 1)
        #expect(stats.windows.first?.attempts == PlatformPolicy().adaptiveRouting.windowAttempts)
    }

    @Test func failoverOnNotSentStillFollowsTheRanking() async throws {
        world.gateway.script(.authorize, at: world.accounts[1], .notSent("down"))
        world.gateway.script(.authorize, at: world.accounts[0], .succeeded())
        let record = try await world.service.create(tenant: world.tenant, try world.request())
        #expect(record.payment.status == .succeeded)
        #expect(world.gateway.calls(.authorize).map(\.accountId) == [world.accounts[1], world.accounts[0]])
    }

    @Test func aFailedStatisticsReadKeepsTheRuleOrderAndThePaymentGoesThrough() async throws {
        stats.rows = nil
        let record = try await world.create(.succeeded())
        #expect(record.payment.status == .succeeded)
        #expect(world.gateway.calls(.authorize).map(\.accountId) == [world.accounts[0]])
        let routing = try #require(record.payment.routing)
        #expect(routing.ranking.map(\.reason) == Array(repeating: "statistics unavailable: rule order", count: 2))
    }

    @Test func orderedRulesDoNotReadStatistics() async throws {
        use(.ordered)
        let record = try await world.create(.succeeded())
        #expect(world.gateway.calls(.authorize).map(\.accountId) == [world.accounts[0]])
        #expect(record.payment.routing?.strategy == .ordered)
        #expect(record.payment.routing?.ranking.map(\.reason) == ["rule order", "rule order"])
        #expect(stats.windows.isEmpty)
    }

    @Test func aStoredPaymentMethodStillGoesToItsIssuingAccount() async throws {
        var credential = StoredPaymentMethod(
            id: "pm_active", tenantId: world.tenant, customerId: "cus_1", accountId: world.accounts[0],
            pluginId: "scripted", kind: "wallet_agreement", correlationId: "as_1", createdAt: world.clock.date)
        credential.status = .active
        credential.token = "agreement-token"
        credential.paymentMethodType = "CARD"
        try await world.credentials.saveCredential(credential)
        world.gateway.script(.authorize, at: world.accounts[0], .succeeded())
        let record = try await world.service.create(
            tenant: world.tenant, try world.request(customer: "cus_1", paymentMethodId: credential.id))
        #expect(record.payment.status == .succeeded)
        #expect(world.gateway.calls(.authorize).map(\.accountId) == [world.accounts[0]])
        #expect(record.payment.routing?.candidates == [world.accounts[0]])
        #expect(stats.windows.isEmpty)
    }

    @Test func theTenantsExplorationShareIsUsed() async throws {
        var policy = PlatformPolicy()
        policy.adaptiveRouting.explorationShare = 0.01
        policy.adaptiveRouting.maxExplorationShare = 1
        let world = DomainWorld(policy: policy, routingStats: stats)
        stats.rows = [
            AuthorizationStats(
                accountId: world.accounts[1], method: "card", currency: "EUR", approved: 95, declined: 5)
        ]
        world.configuration.setRules(
            [RoutingRule(id: UUID(), name: "adaptive", match: .init(), accounts: world.accounts, strategy: .adaptive)],
            tenant: world.tenant)
        var tenant = TenantPolicy()
        tenant.adaptiveRouting = .init(explorationShare: 1)
        world.configuration.setPolicy(tenant, tenant: world.tenant)
        let explanation = try await world.service.explainRoute(
            tenant: world.tenant,
            payment: PaymentDescription(amount: 1_000, currency: "EUR", country: "FR", method: "card"),
            routingKey: "any")
        let decision = try explanation.decided()
        #expect(!AdaptiveRanker.explores("any", share: 0.01))
        #expect(decision.candidates == [world.accounts[0], world.accounts[1]])
        #expect(decision.ranking.first?.reason == "exploration draw")
    }
}
