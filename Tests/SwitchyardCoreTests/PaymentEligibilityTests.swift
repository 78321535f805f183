import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// The eligibility decision per account, the reasons payment options give for methods not offered, and
/// the amounts written with their currency's exponent.
struct PaymentEligibilityTests {
    let tenant = UUID()

    func account(_ plugin: String, enabled: Bool = true) -> ProviderAccount {
        ProviderAccount(
            id: UUID(), tenantId: tenant, name: plugin, pluginId: plugin, environment: "sandbox",
            baseURL: "http://127.0.0.1:1", credentials: ["secret_key": "s3cr3t-value"], secretFields: ["secret_key"],
            enabled: enabled, createdAt: Date(timeIntervalSince1970: 0))
    }

    /// Cards everywhere in EUR and USD up to 10,000.00 EUR (no limit in USD), storable and capturable
    /// later; alipay only in CN.
    func manifest(_ id: String) -> PluginManifest {
        PluginManifest(
            id: id, provider: "Provider \(id)", version: "1", flows: [.authorize, .capture],
            methods: ["card", "alipay"], currencies: ["EUR", "USD", "JPY"], honoursIdempotencyKey: true,
            credentials: [],
            methodSupport: [
                MethodSupport(
                    method: "card", amountLimits: ["EUR": AmountLimit(min: 100, max: 1_000_000)], storable: true,
                    delayedCapture: true,
                    app: AppIntegration(
                        flow: "encrypted_card", sdk: "Kit", nextAction: "kit_session", sessionFields: ["id"],
                        paymentData: ["encrypted"])),
                MethodSupport(method: "alipay", countries: ["CN"], storable: false, delayedCapture: false),
            ])
    }

    func payment(_ amount: Int64, _ currency: String = "EUR", country: String = "FR", method: String = "card")
        -> PaymentDescription
    {
        PaymentDescription(amount: amount, currency: currency, country: country, method: method)
    }

    @Test func eachConditionHasItsReason() {
        let candidate = RoutingCandidate(account: account("p"), manifest: manifest("p"))
        func reason(_ p: PaymentDescription, _ c: RoutingCandidate? = nil) -> PaymentEligibility.Reason? {
            PaymentEligibility.ineligibility(of: c ?? candidate, for: p)?.reason
        }
        #expect(reason(payment(1_000_000)) == nil)
        #expect(reason(payment(100)) == nil)
        #expect(reason(payment(1_000_001)) == .amountAboveMaximum)
        #expect(reason(payment(99)) == .amountBelowMinimum)
        #expect(reason(payment(99_999_999, "USD")) == nil)
        #expect(reason(payment(500, "GBP")) == .currencyNotSupported)
        #expect(reason(payment(500, method: "alipay")) == .countryNotSupported)
        #expect(reason(payment(500, country: "CN", method: "alipay")) == nil)
        #expect(reason(payment(500, method: "paypal")) == .methodNotSupported)
        #expect(
            reason(payment(500), RoutingCandidate(account: account("p", enabled: false), manifest: manifest("p")))
                == .accountDisabled)
        #expect(reason(payment(500), RoutingCandidate(account: account("p"), manifest: nil)) == .pluginNotLoaded)
        var syncOnly = manifest("p")
        syncOnly.flows = [.sync]
        #expect(
            reason(payment(500), RoutingCandidate(account: account("p"), manifest: syncOnly)) == .pluginCannotAuthorize)
    }

    @Test func limitMessagesUseTheCurrencysExponent() {
        let candidate = RoutingCandidate(account: account("p"), manifest: manifest("p"))
        let above = PaymentEligibility.ineligibility(of: candidate, for: payment(1_000_001))
        #expect(above?.message == "amount above 10,000.00 EUR, the most card takes")
        #expect(Currency.formatted(500_000, "JPY") == "500,000 JPY")
        #expect(Currency.formatted(1_234, "KWD") == "1.234 KWD")
        #expect(Currency.formatted(5, "EUR") == "0.05 EUR")
        #expect(Currency.formatted(123_456_789, "USD") == "1,234,567.89 USD")
        #expect(Currency.formatted(-1_000, "EUR") == "-10.00 EUR")
    }

    @Test func routingSkipsAnAccountOverTheMethodsLimitAndFailsOverToTheNext() throws {
        let limited = account("limited")
        let open = account("open")
        var unlimited = manifest("open")
        unlimited.methodSupport = nil
        let rules = [RoutingRule(id: UUID(), name: "cards", match: .init(), accounts: [limited.id, open.id])]
        let accounts = [
            limited.id: RoutingCandidate(account: limited, manifest: manifest("limited")),
            open.id: RoutingCandidate(account: open, manifest: unlimited),
        ]
        let decision = try PaymentRouter.route(payment(2_000_000), rules: rules, accounts: accounts)
        #expect(decision.candidates == [open.id])
        #expect(decision.skipped.map(\.reason) == ["amount above 10,000.00 EUR, the most card takes"])
    }

    @Test func optionsOfferRoutableMethodsWithTheirCapabilitiesAndExplainTheOthers() throws {
        let cards = account("cards")
        let wallets = account("wallets")
        let rules = [
            RoutingRule(id: UUID(), name: "cards", match: .init(methods: ["card"]), accounts: [cards.id]),
            RoutingRule(
                id: UUID(), name: "wallets", match: .init(currencies: ["EUR"], methods: ["alipay", "wechatpay"]),
                accounts: [wallets.id]),
        ]
        var walletManifest = manifest("wallets")
        walletManifest.methods = ["alipay", "wechatpay"]
        walletManifest.methodSupport = nil
        let accounts = [
            cards.id: RoutingCandidate(account: cards, manifest: manifest("cards")),
            wallets.id: RoutingCandidate(
                account: wallets, manifest: walletManifest, unhealthy: "circuit open until later"),
        ]
        let options = PaymentOptions.evaluate(
            amount: 250_000, currency: "EUR", country: "FR", rules: rules, accounts: accounts, version: 7)
        #expect(options.version == 7)
        let card = try #require(options.offered.first)
        #expect(options.offered.map(\.method) == ["card"])
        #expect(card.accountId == cards.id)
        #expect(card.pluginId == "cards")
        #expect(card.provider == "Provider cards")
        #expect(card.support.storable && card.support.delayedCapture)
        #expect(card.support.app?.paymentData == ["encrypted"])
        #expect(options.excluded.map(\.method) == ["alipay", "wechatpay"])
        #expect(options.excluded.map(\.reason) == [.breakerOpen, .breakerOpen])

        let dollars = PaymentOptions.evaluate(
            amount: 250_000, currency: "USD", country: "FR", rules: rules, accounts: accounts)
        #expect(dollars.excluded.first { $0.method == "alipay" }?.reason == .noRule)
        #expect(
            dollars.excluded.first { $0.method == "alipay" }?.message
                == "no routing rule for alipay in USD from FR for 2,500.00 USD")
        let large = PaymentOptions.evaluate(
            amount: 2_000_000, currency: "EUR", country: "FR", rules: rules, accounts: accounts)
        #expect(large.offered.isEmpty)
        let tooLarge = try #require(large.excluded.first { $0.method == "card" })
        #expect(tooLarge.reason == .amountAboveMaximum)
        #expect(tooLarge.message == "amount above 10,000.00 EUR, the most card takes")
    }

    @Test func theClosestReasonOfTheRulesAccountsExplainsTheMethod() {
        let disabled = account("off", enabled: false)
        let limited = account("limited")
        let rules = [
            RoutingRule(id: UUID(), name: "all", match: .init(), accounts: [UUID(), disabled.id, limited.id])
        ]
        let accounts = [
            disabled.id: RoutingCandidate(account: disabled, manifest: manifest("off")),
            limited.id: RoutingCandidate(account: limited, manifest: manifest("limited")),
        ]
        let options = PaymentOptions.evaluate(
            amount: 50, currency: "EUR", country: "FR", rules: rules, accounts: accounts)
        #expect(options.excluded.first { $0.method == "card" }?.reason == .amountBelowMinimum)
        #expect(options.excluded.first { $0.method == "alipay" }?.reason == .countryNotSupported)
    }

    @Test func aManifestWithoutMethodSupportDescribesEveryMethodByItsWideLists() {
        var plain = manifest("p")
        plain.methodSupport = nil
        plain.countries = ["FR"]
        let support = plain.support(for: "alipay")
        #expect(support?.countries == ["FR"])
        #expect(support?.currencies == ["EUR", "USD", "JPY"])
        #expect(support?.storable == false && support?.delayedCapture == false && support?.app == nil)
        #expect(plain.support(for: "paypal") == nil)
    }
}
