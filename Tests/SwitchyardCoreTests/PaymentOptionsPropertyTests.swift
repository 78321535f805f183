import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// Over generated tenants (random rules, accounts, manifests with per-method limits, breakers) and
/// payments (amounts, countries, currencies): a method is offered by payment options exactly when the
/// router, on the same state, routes a payment with that method to some account — and then to the same
/// first account —, and the reason given for the others agrees with the router's failure.
struct PaymentOptionsPropertyTests {
    static let methods = ["card", "alipay", "wechatpay", "paypal", "gcash"]
    static let countries = ["FR", "US", "CN", "PH"]
    static let currencies = ["EUR", "USD", "JPY", "PHP"]

    /// A reproducible random source for one case.
    struct Generator {
        var rng: SplitMix64

        init(seed: UInt64) { rng = SplitMix64(seed: seed) }

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
        mutating func pick<T>(_ values: [T]) -> T { values[int(0...values.count - 1)] }
        mutating func some(_ values: [String], upTo count: Int) -> [String] {
            Array(Set((0..<int(0...count)).map { _ in pick(values) })).sorted()
        }
        mutating func amount() -> Int64 { Int64(pick([1, 99, 100, 5_000, 99_999, 100_000, 1_000_000, 5_000_000])) }
        mutating func bound() -> Int64? { chance(50) ? nil : amount() }

        mutating func manifest(_ id: String) -> PluginManifest? {
            guard !chance(10) else { return nil }
            let methods = some(Self.methods, upTo: 4)
            let support: [MethodSupport]? =
                chance(30)
                ? nil
                : methods.filter { _ in chance(70) }.map { method in
                    var limits: [String: AmountLimit] = [:]
                    for currency in some(Self.currencies, upTo: 2) {
                        limits[currency] = AmountLimit(min: bound(), max: bound())
                    }
                    return MethodSupport(
                        method: method, countries: some(Self.countries, upTo: 2),
                        currencies: some(Self.currencies, upTo: 2), amountLimits: limits, storable: chance(50),
                        delayedCapture: chance(50))
                }
            return PluginManifest(
                id: id, version: "1", provider: id, abiVersion: 1, flows: chance(95) ? [.authorize] : [.sync],
                methods: methods, countries: some(Self.countries, upTo: 2),
                currencies: some(Self.currencies, upTo: 3), honoursIdempotencyKey: true, usesAccessToken: false,
                credentials: [], methodSupport: support)
        }

        mutating func rule(_ index: Int, accounts: [UUID]) -> RoutingRule {
            let named = (0..<int(0...3)).map { _ in chance(90) ? pick(accounts) : UUID() }
            let strategy = pick(RoutingStrategy.allCases)
            return RoutingRule(
                id: UUID(), name: "rule \(index)",
                match: RoutingRule.Match(
                    countries: some(Self.countries, upTo: 2), currencies: some(Self.currencies, upTo: 2),
                    methods: some(Self.methods, upTo: 2), minAmount: bound(), maxAmount: bound()),
                accounts: named, weights: strategy == .weighted ? named.map { _ in int(0...5) } : nil,
                strategy: strategy)
        }

        static let methods = PaymentOptionsPropertyTests.methods
        static let countries = PaymentOptionsPropertyTests.countries
        static let currencies = PaymentOptionsPropertyTests.currencies
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func offeredExactlyWhenTheRouterRoutes(seed: UInt64) throws {
        var g = Generator(seed: seed)
        var offeredSomewhere = 0
        var refusedSomewhere = 0
        for _ in 0..<150 {
            var candidates: [UUID: RoutingCandidate] = [:]
            for index in 0..<g.int(1...4) {
                let id = UUID()
                let account = ProviderAccount(
                    id: id, tenantId: UUID(), name: "account \(index)", pluginId: "plugin\(index)",
                    environment: "sandbox", baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [],
                    enabled: g.chance(90), createdAt: Date(timeIntervalSince1970: 0))
                candidates[id] = RoutingCandidate(
                    account: account, manifest: g.manifest("plugin\(index)"),
                    unhealthy: g.chance(20) ? "circuit open" : nil)
            }
            let ids = candidates.keys.sorted { $0.uuidString < $1.uuidString }
            let rules = (0..<g.int(0...4)).map { g.rule($0, accounts: ids) }
            let amount = g.amount()
            let currency = g.pick(Self.currencies)
            let country = g.pick(Self.countries)
            let options = PaymentOptions.evaluate(
                amount: amount, currency: currency, country: country, rules: rules, accounts: candidates)
            let configured = PaymentOptions.configuredMethods(rules: rules, accounts: candidates)
            #expect(Set(options.offered.map(\.method) + options.excluded.map(\.method)) == Set(configured))
            for method in Self.methods {
                let payment = PaymentDescription(amount: amount, currency: currency, country: country, method: method)
                let routed = Result { try PaymentRouter.route(payment, rules: rules, accounts: candidates) }
                let first = try? routed.get().candidates.first
                let offer = options.offered.first { $0.method == method }
                let context = "seed \(seed): \(method) \(amount) \(currency) \(country)"
                #expect((offer != nil) == (first != nil), "\(context)")
                #expect(offer?.accountId == first, "\(context)")
                if first != nil { offeredSomewhere += 1 }
                guard case .failure(let error) = routed,
                    let exclusion = options.excluded.first(where: {
                        $0.method == method
                    })
                else { continue }
                refusedSomewhere += 1
                let code = (error as? CoreError)?.code
                #expect((exclusion.reason == .breakerOpen) == (code == .providersUnavailable), "\(context)")
                let matched = PaymentRouter.matching(payment, rules: rules).rule != nil
                #expect((exclusion.reason == .noRule) == !matched, "\(context)")
            }
        }
        // The generator reaches both sides of the property.
        #expect(offeredSomewhere > 0 && refusedSomewhere > 0)
    }
}
