import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// Replaying drafts over decisions logged by simulating a live routing with seeded outcomes.
struct RoutingReplayTests {
    // Fixed ids: the routing key (and so every weighted draw of the logged traffic) depends on the tenant,
    // so the logged traffic, and each estimate, is the same in every run.
    let tenant = UUID(uuidString: "7A1C2E3F-0000-4000-8000-000000000001")!
    let a = UUID(uuidString: "7A1C2E3F-0000-4000-8000-00000000000A")!
    let b = UUID(uuidString: "7A1C2E3F-0000-4000-8000-00000000000B")!
    let c = UUID(uuidString: "7A1C2E3F-0000-4000-8000-00000000000C")!
    let fr = RoutingSegment(country: "FR", currency: "EUR", method: "card")
    let de = RoutingSegment(country: "DE", currency: "EUR", method: "card")
    /// The true authorisation rate of each account.
    var rates: [UUID: Double] { [a: 0.9, b: 0.6, c: 0.99] }

    var accounts: [UUID: RoutingCandidate] {
        let manifest = PluginManifest(
            id: "p", version: "1", provider: "p", abiVersion: 1, flows: [.authorize], methods: ["card"],
            countries: [], currencies: [], honoursIdempotencyKey: true, usesAccessToken: false, credentials: [])
        var result: [UUID: RoutingCandidate] = [:]
        for (id, fee) in [(a, Int64(50)), (b, Int64(20)), (c, Int64(10))] {
            var account = ProviderAccount(
                id: id, tenantId: tenant, name: "acct", pluginId: "p", environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date())
            account.fees = ["EUR": FeeModel(fixed: fee, basisPoints: 0)]
            result[id] = RoutingCandidate(account: account, manifest: manifest)
        }
        return result
    }

    func rule(_ name: String, countries: [String] = [], _ ids: [UUID], weights: [Int]? = nil) -> RoutingRule {
        RoutingRule(
            id: UUID(), name: name, match: .init(countries: countries), accounts: ids, weights: weights,
            strategy: weights == nil ? .ordered : .weighted)
    }

    var split: RoutingRule { rule("split", [a, b], weights: [1, 1]) }

    func policy(_ rules: [RoutingRule]) -> RoutingReplay.Policy {
        RoutingReplay.Policy(rules: rules, accounts: accounts)
    }

    /// Routes `counts` payments per segment with `live`, as the payment path does, and draws each
    /// outcome from the chosen account's rate with a seeded generator; newest first.
    func logged(_ live: [RoutingRule], counts: [RoutingSegment: Int]) -> [LoggedDecision] {
        var generator = SplitMix64(seed: 42)
        var decisions: [LoggedDecision] = []
        for segment in counts.keys.sorted() {
            for i in 0..<(counts[segment] ?? 0) {
                let reference = "\(segment.country)-\(i)"
                let payment = PaymentDescription(
                    amount: 10_000, currency: "EUR", country: segment.country, method: "card")
                let key = PaymentRouter.routingKey(
                    tenant: tenant, reference: reference, amount: 10_000, currency: "EUR")
                let decision = PaymentRouter.explain(payment, routingKey: key, rules: live, accounts: accounts)
                    .decision!
                let chosen = decision.candidates[0]
                let unit = Double(generator.next() >> 11) / Double(UInt64(1) << 53)
                decisions.append(
                    LoggedDecision(
                        paymentId: "pay_\(reference)", reference: reference, segment: segment, amount: 10_000,
                        accountId: chosen, propensity: decision.propensity(of: chosen),
                        approved: unit < rates[chosen]!,
                        decidedAt: Date(timeIntervalSince1970: Double(decisions.count))))
            }
        }
        return decisions.reversed()
    }

    func covers(_ estimate: OffPolicyEstimate, _ value: Double?) -> Bool {
        guard let value, let lower = estimate.lower, let upper = estimate.upper else { return false }
        return lower <= value && value <= upper
    }

    @Test func replayingTheLiveRoutingReproducesTheObservedRateWithinItsInterval() {
        let live = [split]
        let report = RoutingReplay(tenant: tenant).run(
            logged(live, counts: [fr: 400, de: 200]), draft: policy(live), live: policy(live))
        #expect(report.payments == 600)
        #expect(report.live.estimate.method == .observed)
        #expect(report.live.estimate == report.observed)
        for segment in report.segments { #expect(covers(segment.live.estimate, segment.observed.rate)) }
        #expect(report.draft == report.live)
        #expect(report.changes.isEmpty)
        #expect(abs((report.live.shares[a] ?? 0) - 0.5) < 1e-9)
        #expect(report.live.fees == ["EUR": 600 * 35])
    }

    @Test func anOrderedLiveRoutingIsReplayedAsObserved() {
        let live = [rule("only a", [a, b])]
        let report = RoutingReplay(tenant: tenant).run(
            logged(live, counts: [fr: 100]), draft: policy(live), live: policy(live))
        #expect(report.live.estimate.method == .observed)
        #expect(report.live.estimate.rate == report.observed.rate)
        #expect(report.live.estimate.effectiveSamples == 100)
    }

    @Test func aDraftDifferingInOneThinSegmentDiffersOnlyThere() throws {
        let live = [split]
        let decisions = logged(live, counts: [fr: 400, de: 60])
        let draft = [rule("de to b", countries: ["DE"], [b, a])] + live
        let report = RoutingReplay(tenant: tenant).run(decisions, draft: policy(draft), live: policy(live))
        let france = try #require(report.segments.first { $0.segment == fr })
        let germany = try #require(report.segments.first { $0.segment == de })
        #expect(france.draft == france.live)
        #expect(germany.draft != germany.live)
        #expect(germany.draft.estimate.method == .dr)
        #expect(germany.draft.shares.keys.sorted { $0.uuidString < $1.uuidString } == [b])
        #expect(abs((germany.draft.shares[b] ?? 0) - 1) < 1e-9)
        #expect(germany.draft.fees == ["EUR": 60 * 20])
        // Every logged choice of b counts twice (1 / 0.5): n_eff is the number of b's payments.
        let onB = decisions.filter { $0.segment == de && $0.accountId == b }.count
        #expect(abs(germany.draft.estimate.effectiveSamples - Double(onB)) < 1e-9)
        #expect(covers(germany.draft.estimate, rates[b]))
        #expect(report.changes.allSatisfy { $0.segment == de && $0.from == a && $0.to == b })
        #expect(report.changes.count == decisions.filter { $0.segment == de && $0.accountId == a }.count)
    }

    @Test func aDraftMovingEverythingToTheBetterAccountEstimatesItsRate() {
        let report = RoutingReplay(tenant: tenant).run(
            logged([split], counts: [fr: 600]), draft: policy([rule("a", [a])]), live: policy([split]))
        #expect(covers(report.draft.estimate, rates[a]))
        #expect((report.draft.estimate.rate ?? 0) > (report.live.estimate.rate ?? 1))
        #expect(report.draft.fees == ["EUR": 600 * 50])
    }

    @Test func aDraftChoosingAnAccountNeverUsedThereHasNotEnoughEvidence() throws {
        let live = [split]
        let draft = [rule("fr to c", countries: ["FR"], [c])] + live
        let report = RoutingReplay(tenant: tenant).run(
            logged(live, counts: [fr: 200, de: 200]), draft: policy(draft), live: policy(live))
        let france = try #require(report.segments.first { $0.segment == fr })
        #expect(!france.draft.estimate.enoughEvidence)
        #expect(france.draft.estimate.effectiveSamples == 0)
        #expect(report.segments.first { $0.segment == de }?.draft.estimate.enoughEvidence == true)
        #expect(!report.draft.estimate.enoughEvidence)
        #expect(report.live.estimate.enoughEvidence)
    }

    @Test func aThinSupportBelowTheThresholdHasNotEnoughEvidence() {
        let live = [rule("mostly a", [a, b], weights: [97, 3])]
        let decisions = logged(live, counts: [fr: 100])
        let report = RoutingReplay(tenant: tenant, estimator: OffPolicyEstimator(minEffectiveSamples: 10))
            .run(decisions, draft: policy([rule("b", [b])]), live: policy(live))
        #expect(report.draft.estimate.effectiveSamples < 10)
        #expect(report.draft.estimate.rate == nil)
    }

    @Test func aPaymentWithoutARouteCountsAsNotAuthorised() {
        let report = RoutingReplay(tenant: tenant).run(
            logged([split], counts: [fr: 50]), draft: policy([rule("de only", countries: ["DE"], [a])]),
            live: policy([split]))
        #expect(report.draft.unrouted == 50)
        #expect(report.changes.allSatisfy { $0.to == nil })
        #expect(report.changes.count == 50)
    }

    @Test func theSameInputsGiveTheSameReport() {
        let decisions = logged([split], counts: [fr: 300, de: 50])
        let draft = policy([rule("de to b", countries: ["DE"], [b]), split])
        let replay = RoutingReplay(tenant: tenant)
        #expect(
            replay.run(decisions, draft: draft, live: policy([split]))
                == replay.run(
                    decisions, draft: draft, live: policy([split])))
    }

    @Test func windowsOutOfBoundsAreRefusedNamingTheirField() {
        func refusal(_ window: ReplayWindow) -> String? {
            do {
                try RoutingReplayService.check(window, maxPayments: 100)
                return nil
            } catch let error as CoreError {
                return "\(error.code.rawValue) \(error.param ?? "-")"
            } catch {
                return "\(error)"
            }
        }
        let now = Date()
        #expect(refusal(ReplayWindow(last: 100)) == nil)
        #expect(refusal(ReplayWindow(from: now, to: now.addingTimeInterval(1))) == nil)
        #expect(refusal(ReplayWindow(last: 0)) == "invalid_parameter last")
        #expect(refusal(ReplayWindow(last: 101)) == "replay_window_too_large last")
        #expect(refusal(ReplayWindow(from: now, to: now)) == "invalid_parameter to")
    }

    @Test func theGateAdmitsAtMostTheLimitPerTenant() async {
        let gate = ReplayGate()
        let other = UUID()
        #expect(await gate.enter(tenant, limit: 2))
        #expect(await gate.enter(tenant, limit: 2))
        #expect(!(await gate.enter(tenant, limit: 2)))
        #expect(await gate.enter(other, limit: 2))
        await gate.leave(tenant)
        #expect(await gate.enter(tenant, limit: 2))
    }
}
