import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// A rule's currencies are checked per payment method, as the manifests declare them: a currency the plugin
/// takes only for another method is refused.
extension RoutingValidatorTests {
    /// An account whose plugin takes PHP and USD, but GCash in PHP only.
    static func mixed() -> RoutingCandidate {
        let account = ProviderAccount(
            id: UUID(), tenantId: UUID(), name: "mixed", pluginId: "mixed", environment: "sandbox",
            baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date())
        let manifest = PluginManifest(
            id: "mixed", version: "1", provider: "p", abiVersion: 1, flows: [.authorize], methods: ["gcash", "card"],
            countries: [], currencies: ["PHP", "USD"], honoursIdempotencyKey: true, usesAccessToken: false,
            credentials: [],
            methodSupport: [
                MethodSupport(method: "gcash", currencies: ["PHP"], storable: false, delayedCapture: false)
            ])
        return RoutingCandidate(account: account, manifest: manifest)
    }

    @Test func aCurrencyIsCheckedForEachMethodOfTheRule() {
        let mixed = Self.mixed()
        var all = accounts
        all[mixed.account.id] = mixed
        func issues(_ match: RoutingRule.Match, _ accounts: [UUID]) -> [RoutingIssue] {
            RoutingValidator.validate([rule("r", match, accounts)], accounts: all)
        }
        let refused = issues(.init(currencies: ["USD"], methods: ["gcash"]), [mixed.account.id])
        #expect(refused.map(\.code) == ["currency_unsupported"])
        #expect(
            refused.first?.message == "rule 0 ('r'): no plugin of its accounts supports method gcash in currency USD")
        #expect(refused.first?.ruleIndex == 0 && refused.first?.severity == .error)
        // Each method is held to the currency: card takes USD, GCash does not.
        #expect(issues(.init(currencies: ["USD"], methods: ["card", "gcash"]), [mixed.account.id]).count == 1)
        #expect(issues(.init(currencies: ["PHP"], methods: ["card", "gcash"]), [mixed.account.id]).isEmpty)
        #expect(issues(.init(currencies: ["USD"], methods: ["card"]), [mixed.account.id]).isEmpty)
        // Without methods, some method must take the currency.
        #expect(issues(.init(currencies: ["USD"]), [mixed.account.id]).isEmpty)
        #expect(issues(.init(currencies: ["EUR"]), [mixed.account.id]).map(\.code) == ["currency_unsupported"])
        // Another account of the rule that takes GCash in USD makes the rule sound.
        #expect(issues(.init(currencies: ["USD"], methods: ["gcash"]), [mixed.account.id, wallets.id]).isEmpty)
        // A method no plugin supports is reported once, not again for each currency.
        #expect(
            issues(.init(currencies: ["USD"], methods: ["alipay"]), [mixed.account.id]).map(\.code) == [
                "method_unsupported"
            ])
    }
}
