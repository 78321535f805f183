import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// A method whose manifest says it is paid only with a stored payment method (`requiresStoredMethod`) is
/// offered only when the customer has a usable one for it; otherwise it is unavailable with
/// `stored_method_required`, whatever the provider is called.
struct PaymentOptionsStoredMethodTests {
    let account = ProviderAccount(
        id: UUID(), tenantId: UUID(), name: "vault", pluginId: "vault", environment: "sandbox",
        baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date())

    var accounts: [UUID: RoutingCandidate] {
        let manifest = PluginManifest(
            id: "vault", version: "1", provider: "Vault", abiVersion: 1, flows: [.authorize],
            methods: ["card", "wallet"], countries: [], currencies: ["EUR"], honoursIdempotencyKey: true,
            usesAccessToken: false, credentials: [],
            methodSupport: [
                MethodSupport(method: "card", storable: true, delayedCapture: true, requiresStoredMethod: true),
                MethodSupport(method: "wallet", storable: true, delayedCapture: false),
            ])
        return [account.id: RoutingCandidate(account: account, manifest: manifest)]
    }

    func evaluate(customer: String?, stored: Set<String>) -> PaymentOptions {
        let rule = RoutingRule(id: UUID(), name: "all", match: .init(), accounts: [account.id])
        return PaymentOptions.evaluate(
            amount: 1000, currency: "EUR", country: "FR", rules: [rule], accounts: accounts, customerId: customer,
            storedMethods: stored)
    }

    @Test func theMethodIsOfferedOnlyWithAUsableStoredOne() throws {
        let without = evaluate(customer: "alice", stored: ["wallet"])
        #expect(without.offered.map(\.method) == ["wallet"])
        let card = try #require(without.excluded.first)
        #expect(card.method == "card" && card.reason == .storedMethodRequired)
        #expect(card.message.contains("customer 'alice' has none usable"))

        let anonymous = evaluate(customer: nil, stored: [])
        #expect(anonymous.excluded.map(\.reason) == [.storedMethodRequired])
        #expect(anonymous.excluded.first?.message.contains("give the customer") == true)

        let with = evaluate(customer: "alice", stored: ["card"])
        #expect(with.offered.map(\.method) == ["card", "wallet"] && with.excluded.isEmpty)
        #expect(with.offered.first?.support.requiresStoredMethod == true)
    }

    @Test func aDeclarationWithoutTheFlagDecodesAsNotRequiringOne() throws {
        let json = #"""
            {"method": "card", "countries": [], "currencies": [], "amountLimits": {}, "storable": true,
             "delayedCapture": false}
            """#
        let support = try JSONDecoder().decode(MethodSupport.self, from: Data(json.utf8))
        #expect(!support.requiresStoredMethod)
        let flagged = MethodSupport(method: "card", storable: true, delayedCapture: false, requiresStoredMethod: true)
        let decoded = try JSONDecoder().decode(MethodSupport.self, from: JSONEncoder().encode(flagged))
        #expect(decoded == flagged)
    }
}
