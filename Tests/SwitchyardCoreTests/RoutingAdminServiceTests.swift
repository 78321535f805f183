import Foundation
import ProviderKit
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

struct RoutingAdminServiceTests {
    let tenant = UUID()
    let cards: ProviderAccount
    let routing = InMemoryRoutingRepository(now: { Date(timeIntervalSince1970: 1_800_000_000) })
    let service: RoutingAdminService

    static let manifest = PluginManifest(
        id: "acme", version: "1.0.0", provider: "Acme", abiVersion: 1, flows: [.authorize], methods: ["card"],
        countries: [], currencies: ["EUR"], honoursIdempotencyKey: true, usesAccessToken: false, credentials: [])

    init() {
        cards = ProviderAccount(
            id: UUID(), tenantId: tenant, name: "cards", pluginId: "acme", environment: "sandbox",
            baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date())
        service = RoutingAdminService(
            routing: routing, accounts: InMemoryAccountRepository([cards]),
            manifest: { $0 == "acme" ? Self.manifest : nil })
    }

    func rule(_ name: String, methods: [String], _ accounts: [UUID]) -> RoutingRule {
        RoutingRule(id: UUID(), name: name, match: .init(methods: methods), accounts: accounts)
    }

    @Test func aValidRoutingIsStoredAsTheNextVersionWithItsActor() async throws {
        #expect(try await service.configuration(tenant: tenant) == RoutingConfiguration(version: 0, rules: []))
        let rules = [rule("cards", methods: ["card"], [cards.id])]
        let first = try await service.replace(tenant: tenant, rules: rules, expectedVersion: nil, actor: "operator")
        #expect(first == .init(configuration: .init(version: 1, rules: rules), warnings: []))
        let second = try await service.replace(tenant: tenant, rules: [], expectedVersion: 1, actor: "api_key:sy_ab")
        #expect(second.configuration.version == 2)
        #expect(try await service.configuration(tenant: tenant) == RoutingConfiguration(version: 2, rules: []))
        let history = try await service.history(tenant: tenant)
        #expect(history.map(\.version) == [2, 1] && history.map(\.actor) == ["api_key:sy_ab", "operator"])
        #expect(history.last?.rules == rules)
    }

    @Test func everyValidationErrorRefusesTheRoutingAndNothingIsStored() async throws {
        let rules = [
            rule("ghost", methods: ["card"], [UUID()]),
            rule("wallets", methods: ["gcash"], [cards.id]),
        ]
        do {
            _ = try await service.replace(tenant: tenant, rules: rules, expectedVersion: nil, actor: "operator")
            Issue.record("an invalid routing was stored")
        } catch let rejection as RoutingAdminService.Rejection {
            #expect(rejection.issues.map(\.code) == ["unknown_account", "method_unsupported"])
            #expect(rejection.issues.map(\.ruleIndex) == [0, 1])
            #expect(rejection.message.hasPrefix("rule 0 ('ghost')") && rejection.message.hasSuffix("(and 1 more)"))
        }
        #expect(try await service.configuration(tenant: tenant).version == 0)
        #expect(try await service.history(tenant: tenant).isEmpty)
    }

    @Test func anAccountOfAnotherTenantIsUnknownAndAStaleVersionConflicts() async throws {
        let other = RoutingAdminService(
            routing: routing, accounts: InMemoryAccountRepository([cards]), manifest: { _ in Self.manifest })
        await #expect(throws: RoutingAdminService.Rejection.self) {
            _ = try await other.replace(
                tenant: UUID(), rules: [rule("cards", methods: ["card"], [cards.id])], expectedVersion: nil,
                actor: "operator")
        }
        _ = try await service.replace(tenant: tenant, rules: [], expectedVersion: 0, actor: "operator")
        await expectCoreError(.routingVersionConflict) {
            _ = try await service.replace(tenant: tenant, rules: [], expectedVersion: 0, actor: "operator")
        }
        #expect(try await service.configuration(tenant: tenant).version == 1)
    }
}
