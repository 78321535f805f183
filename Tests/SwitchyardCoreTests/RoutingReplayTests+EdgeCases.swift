import Foundation
import Testing

@testable import SwitchyardCore

/// Replays at the edges: nothing or almost nothing logged, no evidence anywhere, the live routing itself,
/// and logged probabilities at or past the ends of (0, 1]. Every number a replay answers must be finite
/// (a JSON encoder refuses NaN and infinity) and every rate and bound within 0…1.
extension RoutingReplayTests {
    /// Whether every number of `estimate` is finite and its rate and interval lie in 0…1 in order.
    func sound(_ estimate: OffPolicyEstimate) -> Bool {
        guard estimate.effectiveSamples.isFinite, estimate.effectiveSamples >= 0 else { return false }
        guard let rate = estimate.rate else { return estimate.lower == nil && estimate.upper == nil }
        guard let lower = estimate.lower, let upper = estimate.upper else { return false }
        return 0 <= lower && lower <= rate && rate <= upper && upper <= 1
    }

    func sound(_ report: RoutingReplay.Report) -> Bool {
        let estimates =
            [report.observed, report.draft.estimate, report.live.estimate]
            + report.segments.flatMap { [$0.observed, $0.draft.estimate, $0.live.estimate] }
        let shares = ([report.draft, report.live] + report.segments.flatMap { [$0.draft, $0.live] })
            .flatMap(\.shares.values)
        return estimates.allSatisfy(sound) && shares.allSatisfy { $0.isFinite && 0 <= $0 && $0 <= 1 + 1e-9 }
    }

    /// `count` decisions of segment `fr` on account `a`, logged with `propensity`, the first `approved`
    /// of them authorised.
    func decisions(_ count: Int, propensity: Double, approved: Int) -> [LoggedDecision] {
        (0..<count).map { i in
            LoggedDecision(
                paymentId: "pay_\(i)", reference: "r\(i)", segment: fr, amount: 1_000, accountId: a,
                propensity: propensity, approved: i < approved, decidedAt: Date(timeIntervalSince1970: Double(-i)))
        }
    }

    @Test func anEmptyWindowHasNoNumberAndNothingToDivide() {
        let report = RoutingReplay(tenant: tenant).run([], draft: policy([split]), live: policy([split]))
        #expect(report.payments == 0)
        #expect(report.segments.isEmpty)
        #expect(report.changes.isEmpty)
        #expect(report.observed.rate == nil)
        #expect(report.draft.estimate.rate == nil)
        #expect(report.draft.shares.isEmpty)
        #expect(report.draft.fees == [:])
        #expect(sound(report))
    }

    @Test func onePaymentGivesAClampedIntervalAndNoOffPolicyNumber() throws {
        let one = logged([split], counts: [fr: 1])
        let report = RoutingReplay(tenant: tenant).run(one, draft: policy([rule("b", [b])]), live: policy([split]))
        #expect(report.payments == 1)
        #expect(report.observed.lower == 0 || report.observed.upper == 1)
        #expect(report.draft.estimate.effectiveSamples <= 1)
        #expect(!report.draft.estimate.enoughEvidence)
        #expect(sound(report))
    }

    @Test func onlySegmentsWithoutSupportWithholdEveryDraftNumber() {
        let report = RoutingReplay(tenant: tenant).run(
            logged([split], counts: [fr: 100, de: 100]), draft: policy([rule("c", [c])]), live: policy([split]))
        #expect(report.segments.count == 2)
        #expect(report.segments.allSatisfy { !$0.draft.estimate.enoughEvidence })
        #expect(report.segments.allSatisfy { $0.draft.estimate.effectiveSamples == 0 })
        #expect(!report.draft.estimate.enoughEvidence)
        #expect(report.live.estimate.enoughEvidence)
        #expect(sound(report))
    }

    @Test func aDraftIdenticalToAWeightedLiveRoutingIsTheObservedRate() {
        let report = RoutingReplay(tenant: tenant).run(
            logged([split], counts: [fr: 300, de: 40]), draft: policy([split]), live: policy([split]))
        #expect(report.draft.estimate.method == .observed)
        #expect(report.draft.estimate == report.observed)
        for segment in report.segments {
            #expect(segment.draft.estimate.method == .observed)
            #expect(segment.draft.estimate == segment.observed)
        }
    }

    @Test func aDraftKeepingEveryLoggedProbabilityButUsingAnAccountNeverChosenIsNotTheObservedRate() {
        // Logged on a with probability ½ (the other half went nowhere logged): a draft splitting a and c
        // gives every weight 1, yet half of its payments go to c, never chosen in the segment.
        let logged = decisions(40, propensity: 0.5, approved: 30)
        let estimate = OffPolicyEstimator().estimate(
            logged, targets: Array(repeating: [a: 0.5, c: 0.5], count: 40), model: OffPolicyEstimator.Model(logged))
        #expect(estimate.method == .dr)
        #expect(!estimate.enoughEvidence)
        let same = OffPolicyEstimator().estimate(
            logged, targets: Array(repeating: [a: 0.5, b: 0.5], count: 40),
            model: OffPolicyEstimator.Model(logged + [decision(on: b)]))
        #expect(same.method == .observed)
        #expect(same.rate == 0.75)
    }

    func decision(on account: UUID) -> LoggedDecision {
        LoggedDecision(
            paymentId: "pay_b", segment: fr, amount: 1_000, accountId: account, propensity: 0.5, approved: true,
            decidedAt: Date(timeIntervalSince1970: 0))
    }

    @Test func aRateAboveOneIsClampedWithItsWholeInterval() throws {
        // Logged with probability 0.1 and all authorised: each term is r̂ + 10·(1 − r̂) > 1.
        let logged = decisions(50, propensity: 0.1, approved: 50)
        let estimator = OffPolicyEstimator()
        let estimate = estimator.estimate(
            logged, targets: Array(repeating: [a: 1], count: 50), model: OffPolicyEstimator.Model(logged))
        #expect(estimate.method == .dr)
        #expect(estimate.rate == 1)
        #expect(estimate.upper == 1)
        #expect(estimate.lower == 1)
        #expect(sound(estimate))
    }

    @Test(arguments: [0, -0.5, 1.5, Double.nan, .infinity, 1e-300, .leastNonzeroMagnitude])
    func anExtremeLoggedProbabilityNeverGivesANonFiniteNumber(_ propensity: Double) {
        var logged = decisions(40, propensity: 0.5, approved: 30)
        logged[3].propensity = propensity
        let estimate = OffPolicyEstimator().estimate(
            logged, targets: Array(repeating: [a: 1], count: 40), model: OffPolicyEstimator.Model(logged))
        #expect(sound(estimate))
        #expect(estimate.samples == 40)
        if !(propensity > 0 && propensity <= 1) || !(1 / propensity).isFinite {
            #expect(!estimate.enoughEvidence, "a probability outside (0, 1] is no evidence")
        } else {
            // One weight dwarfs the others: the effective sample size is about one payment.
            #expect(estimate.effectiveSamples < 1.5)
            #expect(!estimate.enoughEvidence)
        }
    }

    @Test func everyLoggedProbabilityAtTheSmallestPositiveValueStillGivesFiniteNumbers() {
        let logged = decisions(40, propensity: .leastNonzeroMagnitude, approved: 20)
        let estimate = OffPolicyEstimator().estimate(
            logged, targets: Array(repeating: [a: 1], count: 40), model: OffPolicyEstimator.Model(logged))
        #expect(sound(estimate))
        #expect(!estimate.enoughEvidence)
        let tiny = decisions(40, propensity: 1e-300, approved: 20)
        let huge = OffPolicyEstimator().estimate(
            tiny, targets: Array(repeating: [a: 1], count: 40), model: OffPolicyEstimator.Model(tiny))
        #expect(sound(huge))
        #expect(abs(huge.effectiveSamples - 40) < 1e-9, "equal weights, however large, count every payment")
        #expect(!huge.enoughEvidence, "terms of ±5e299 have no finite interval")
    }

    @Test func theEffectiveSampleSizeDoesNotOverflow() {
        #expect(OffPolicyEstimator.effectiveSamples([]) == 0)
        #expect(OffPolicyEstimator.effectiveSamples([0, 0]) == 0)
        #expect(OffPolicyEstimator.effectiveSamples([1e200, 1e200, 1e200]) == 3)
        #expect(abs(OffPolicyEstimator.effectiveSamples([1e300, 1, 1]) - 1) < 1e-9)
    }
}
