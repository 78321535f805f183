import Foundation
import Testing

@testable import SwitchyardCore

/// The guarded rollout's decision, fed generated answer sequences.
struct RolloutDecisionTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Feeds alternating answers (control, draft, …) one second apart with the given authorisation rates until
    /// the decision acts or `limit` answers per arm were seen; returns the action and the answers per arm.
    func run(
        control: Double, draft: Double, settings: RolloutSettings, seed: UInt64, limit: Int
    ) -> (action: RolloutDecision.Action, perArm: Int) {
        var rng = SplitMix64(seed: seed)
        var decision = RolloutDecision(settings: settings, startedAt: start)
        for index in 0..<limit {
            let at = start.addingTimeInterval(Double(index))
            for (arm, rate) in [(RolloutArm.control, control), (.draft, draft)] {
                let action = decision.handle(
                    .answer(arm, approved: Double.random(in: 0..<1, using: &rng) < rate, at: at))
                if action != .continue { return (action, index + 1) }
            }
        }
        return (.continue, limit)
    }

    let long: TimeInterval = 365 * 86_400

    @Test func clearlyWorseDraftIsRolledBackLongBeforeTheMinimumSample() {
        let settings = RolloutSettings(share: 0.1, guardrail: 0.03, minSamples: 5_000, maxDuration: long)
        for seed in UInt64(1)...20 {
            let (action, perArm) = run(control: 0.9, draft: 0.6, settings: settings, seed: seed, limit: 5_000)
            #expect(action == .rollBack(.guardrailBreached))
            #expect(perArm < 400)
        }
    }

    @Test func betterDraftIsPromotedOnceTheMinimumSampleIsReached() {
        let settings = RolloutSettings(share: 0.2, guardrail: 0.03, minSamples: 500, maxDuration: long)
        for seed in UInt64(1)...20 {
            let (action, perArm) = run(control: 0.85, draft: 0.92, settings: settings, seed: seed, limit: 20_000)
            #expect(action == .promote(.withinGuardrail))
            #expect(perArm >= 500)
            #expect(perArm < 3_000)
        }
    }

    @Test func equalDraftIsNotPromotedBeforeTheMinimumSample() {
        let settings = RolloutSettings(share: 0.5, guardrail: 0.05, minSamples: 2_000, maxDuration: long)
        let (action, perArm) = run(control: 0.8, draft: 0.8, settings: settings, seed: 7, limit: 20_000)
        #expect(action == .promote(.withinGuardrail))
        #expect(perArm >= 2_000)
    }

    @Test func equalDraftIsPromotedAtTheLongestDuration() {
        // One answer per arm per second: the interval cannot exclude −1 point within 300 seconds.
        let settings = RolloutSettings(share: 0.5, guardrail: 0.01, minSamples: 50, maxDuration: 300)
        let (action, perArm) = run(control: 0.8, draft: 0.8, settings: settings, seed: 3, limit: 10_000)
        #expect(action == .promote(.maxDuration))
        #expect(perArm == 301)
    }

    @Test func aTickAloneEndsARolloutAtItsLongestDuration() {
        let settings = RolloutSettings(share: 0.5, guardrail: 0.03, minSamples: 50, maxDuration: 600)
        var decision = RolloutDecision(settings: settings, startedAt: start)
        #expect(decision.handle(.tick(start.addingTimeInterval(599))) == .continue)
        #expect(decision.interval == nil)
        #expect(decision.handle(.tick(start.addingTimeInterval(600))) == .promote(.maxDuration))
        #expect(decision.figures.elapsedSeconds == 600)
    }

    @Test func noRollbackOnAHandfulOfAnswers() {
        let settings = RolloutSettings(share: 0.5, guardrail: 0.03, minSamples: 1_000, maxDuration: long)
        var decision = RolloutDecision(settings: settings, startedAt: start)
        for _ in 0..<(RolloutDecision.burnIn - 1) {
            #expect(decision.handle(.answer(.control, approved: true, at: start)) == .continue)
            #expect(decision.handle(.answer(.draft, approved: false, at: start)) == .continue)
        }
        _ = decision.handle(.answer(.control, approved: true, at: start))
        #expect(decision.handle(.answer(.draft, approved: false, at: start)) == .rollBack(.guardrailBreached))
        let figures = decision.figures
        #expect(figures.control == RolloutDecision.Tally(samples: 20, approved: 20))
        #expect(figures.draftRate == 0)
        #expect((figures.interval?.upper ?? 0) < -0.03)
    }

    /// Monitored after every answer, an equal draft is wrongly rolled back in fewer than alpha of the runs,
    /// even with no guardrail at all (the hardest case) and no promotion to end a run early.
    @Test func falseRollbacksOfAnEqualDraftStayBelowAlpha() {
        let settings = RolloutSettings(share: 0.5, guardrail: 0, minSamples: .max, maxDuration: long, alpha: 0.05)
        let runs = 400
        var rollbacks = 0
        for seed in 0..<UInt64(runs) {
            let (action, _) = run(control: 0.8, draft: 0.8, settings: settings, seed: seed &* 7919 &+ 11, limit: 2_000)
            if case .rollBack = action { rollbacks += 1 }
        }
        #expect(Double(rollbacks) / Double(runs) < 0.05)
    }

    @Test func armsSplitByAStableHashOfTheRoutingKey() {
        let rollout = RoutingRollout(
            id: UUID(uuidString: "6f1c2a1e-0000-4000-8000-000000000001")!,
            settings: RolloutSettings(share: 0.2, guardrail: 0.03, minSamples: 10, maxDuration: 60), draftVersion: 2,
            draftRules: [], startedAt: start, actor: "operator")
        let keys = (0..<5_000).map { "tenant|ref-\($0)|1000|EUR" }
        let drafts = keys.filter { rollout.arm(routingKey: $0) == .draft }.count
        #expect(abs(Double(drafts) / 5_000 - 0.2) < 0.03)
        #expect(keys.allSatisfy { rollout.arm(routingKey: $0) == rollout.arm(routingKey: $0) })
    }
}
