import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

struct RoutingValidatorTests {
    let wallets: ProviderAccount
    let cards: ProviderAccount
    let accounts: [UUID: RoutingCandidate]

    init() {
        func account(_ plugin: String) -> ProviderAccount {
            ProviderAccount(
                id: UUID(), tenantId: UUID(), name: plugin, pluginId: plugin, environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date())
        }
        func manifest(_ methods: [String], _ currencies: [String]) -> PluginManifest {
            PluginManifest(
                id: "p", version: "1", provider: "p", abiVersion: 1, flows: [.authorize], methods: methods,
                countries: [], currencies: currencies, honoursIdempotencyKey: true, usesAccessToken: false,
                credentials: [])
        }
        wallets = account("wallets")
        cards = account("cards")
        accounts = [
            wallets.id: RoutingCandidate(account: wallets, manifest: manifest(["gcash"], ["PHP", "USD"])),
            cards.id: RoutingCandidate(account: cards, manifest: manifest(["card"], ["EUR"])),
        ]
    }

    func rule(_ name: String, _ match: RoutingRule.Match, _ accounts: [UUID], weights: [Int]? = nil) -> RoutingRule {
        RoutingRule(id: UUID(), name: name, match: match, accounts: accounts, weights: weights)
    }

    func codes(_ rules: [RoutingRule]) -> [String] {
        RoutingValidator.validate(rules, accounts: accounts).filter { $0.severity == .error }.map(\.code)
    }

    @Test func aSoundConfigurationHasNoErrors() {
        let rules = [
            rule("big euro cards", .init(currencies: ["EUR"], methods: ["card"], minAmount: 100_000), [cards.id]),
            rule("euro cards", .init(currencies: ["EUR"], methods: ["card"]), [cards.id]),
            rule("wallets", .init(methods: ["gcash"]), [wallets.id]),
        ]
        #expect(RoutingValidator.validate(rules, accounts: accounts).isEmpty)
    }

    @Test func eachProblemNamesItsRule() {
        let unknown = UUID()
        let issues = RoutingValidator.validate(
            [
                rule("cards", .init(methods: ["card"]), [cards.id]),
                rule("ghost", .init(methods: ["gcash"]), [unknown]),
                rule("shadowed", .init(currencies: ["EUR"], methods: ["card"]), [cards.id]),
                rule("wrong method", .init(methods: ["alipay"]), [wallets.id]),
            ], accounts: accounts)
        #expect(issues.map(\.code) == ["unknown_account", "rule_unreachable", "method_unsupported"])
        #expect(issues.map(\.ruleIndex) == [1, 2, 3])
        #expect(issues[1].message.contains("rule 0 ('cards')"))
        #expect(issues[2].ruleName == "wrong method")
    }

    @Test func aPartialOverlapIsAnError() {
        let rules = [
            rule("philippines", .init(countries: ["PH"]), [wallets.id]),
            rule("pesos", .init(currencies: ["PHP"]), [wallets.id]),
        ]
        #expect(codes(rules) == ["rule_overlap"])
    }

    @Test func amountBoundsNeedCurrenciesOfOneExponent() {
        #expect(codes([rule("r", .init(minAmount: 10), [wallets.id])]) == ["amount_without_currency"])
        #expect(
            codes([rule("r", .init(currencies: ["USD", "JPY"], maxAmount: 10), [wallets.id])]) == [
                "mixed_currency_exponents", "currency_unsupported",
            ])
        #expect(
            codes([rule("r", .init(currencies: ["USD"], minAmount: 20, maxAmount: 10), [wallets.id])]) == [
                "invalid_rule"
            ])
    }

    @Test func weightsAreChecked() {
        #expect(codes([rule("r", .init(), [wallets.id, cards.id], weights: [1])]) == ["invalid_weights"])
        #expect(codes([rule("r", .init(), [wallets.id, cards.id], weights: [0, 0])]) == ["invalid_weights"])
        #expect(codes([rule("r", .init(), [wallets.id, cards.id], weights: [-1, 3])]) == ["invalid_weights"])
        #expect(codes([rule("r", .init(), [wallets.id, cards.id], weights: [70, 30])]).isEmpty)
    }

    @Test func hugeWeightsAreRefusedWithoutOverflow() {
        // The sum of these used to overflow (and trap) before any bound was checked.
        #expect(codes([rule("r", .init(), [wallets.id, cards.id], weights: [Int.max, 1])]) == ["invalid_weights"])
        #expect(
            codes([rule("r", .init(), [wallets.id, cards.id], weights: [Int.max, Int.max])]) == ["invalid_weights"])
        #expect(
            codes([rule("r", .init(), [wallets.id, cards.id], weights: [Int.min, Int.max])]) == ["invalid_weights"])
        #expect(codes([rule("r", .init(), [wallets.id, cards.id], weights: [1_000_001, 0])]) == ["invalid_weights"])
        #expect(
            codes([rule("r", .init(), [wallets.id, cards.id], weights: [600_000, 400_001])]) == ["invalid_weights"])
        #expect(codes([rule("r", .init(), [wallets.id, cards.id], weights: [600_000, 400_000])]).isEmpty)
        #expect(RoutingValidator.checkedSum([Int.max, 1]) == nil)
        #expect(RoutingValidator.checkedSum([Int.max - 1, 1]) == Int.max)
    }

    @Test func amountBoundsAreLimitedToTheLargestAmount() {
        let match = RoutingRule.Match(currencies: ["USD"], minAmount: 0, maxAmount: Int64.max)
        #expect(codes([rule("r", match, [wallets.id])]) == ["invalid_rule"])
    }

    @Test func codesMustBeWellFormed() {
        #expect(codes([rule("r", .init(countries: ["ph"]), [wallets.id])]) == ["invalid_rule"])
        #expect(codes([rule("r", .init(currencies: ["XYZ"]), [wallets.id])]).contains("invalid_rule"))
        #expect(codes([rule("r", .init(methods: ["GCash"]), [wallets.id])]).contains("invalid_rule"))
        #expect(codes([rule("r", .init(), [])]) == ["invalid_rule"])
    }
}
