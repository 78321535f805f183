import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

struct RouterTests {
    let tenant = UUID()

    func account(_ plugin: String, enabled: Bool = true) -> ProviderAccount {
        ProviderAccount(
            id: UUID(), tenantId: tenant, name: plugin, pluginId: plugin, environment: "sandbox",
            baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: enabled,
            createdAt: Date())
    }

    func manifest(_ id: String, methods: [String], currencies: [String] = []) -> PluginManifest {
        PluginManifest(
            id: id, version: "1", provider: id, abiVersion: 1, flows: [.authorize], methods: methods, countries: [],
            currencies: currencies, honoursIdempotencyKey: true, usesAccessToken: false, credentials: [])
    }

    @Test func firstMatchingRuleWinsAndKeepsOrder() throws {
        let a = account("citcon")
        let b = account("other")
        let rules = [
            RoutingRule(id: UUID(), name: "eur", match: .init(currencies: ["EUR"]), accounts: [b.id]),
            RoutingRule(
                id: UUID(), name: "us", match: .init(countries: ["US"], currencies: ["USD"]), accounts: [a.id, b.id]),
        ]
        let candidates = [
            a.id: RoutingCandidate(account: a, manifest: manifest("citcon", methods: ["alipay"])),
            b.id: RoutingCandidate(account: b, manifest: manifest("other", methods: ["alipay"])),
        ]
        let decision = try PaymentRouter.route(
            PaymentDescription(amount: 1234, currency: "USD", country: "US", method: "alipay"), rules: rules,
            accounts: candidates)
        #expect(decision.ruleName == "us")
        #expect(decision.candidates == [a.id, b.id])
    }

    @Test func filtersByManifestAndEnablementWithReasons() throws {
        let a = account("citcon", enabled: false)
        let b = account("other")
        let c = account("third")
        let rules = [RoutingRule(id: UUID(), name: "all", match: .init(), accounts: [a.id, b.id, c.id])]
        let candidates = [
            a.id: RoutingCandidate(account: a, manifest: manifest("citcon", methods: ["alipay"])),
            b.id: RoutingCandidate(account: b, manifest: manifest("other", methods: ["card"])),
            c.id: RoutingCandidate(account: c, manifest: manifest("third", methods: ["alipay"], currencies: ["USD"])),
        ]
        let decision = try PaymentRouter.route(
            PaymentDescription(amount: 1, currency: "USD", country: "US", method: "alipay"), rules: rules,
            accounts: candidates)
        #expect(decision.candidates == [c.id])
        #expect(decision.skipped.map(\.reason) == ["account disabled", "plugin does not support method alipay"])
    }

    @Test func amountBoundsAreInclusive() {
        let match = RoutingRule.Match(minAmount: 100, maxAmount: 200)
        #expect(match.matches(PaymentDescription(amount: 100, currency: "USD", country: "US", method: "x")))
        #expect(match.matches(PaymentDescription(amount: 200, currency: "USD", country: "US", method: "x")))
        #expect(!match.matches(PaymentDescription(amount: 201, currency: "USD", country: "US", method: "x")))
        #expect(!match.matches(PaymentDescription(amount: 99, currency: "USD", country: "US", method: "x")))
    }

    @Test func noMatchingRuleIsNoRoute() {
        #expect {
            try PaymentRouter.route(
                PaymentDescription(amount: 1, currency: "USD", country: "US", method: "alipay"), rules: [],
                accounts: [:])
        } throws: { ($0 as? CoreError)?.code == .noRoute }
    }

    @Test func unloadedPluginIsSkipped() {
        let a = account("gone")
        let rules = [RoutingRule(id: UUID(), name: "r", match: .init(), accounts: [a.id])]
        #expect(throws: CoreError.self) {
            try PaymentRouter.route(
                PaymentDescription(amount: 1, currency: "USD", country: "US", method: "alipay"), rules: rules,
                accounts: [a.id: RoutingCandidate(account: a, manifest: nil)])
        }
    }
}
