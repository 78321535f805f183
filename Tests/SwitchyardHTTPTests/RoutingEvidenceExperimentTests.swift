import Foundation
import SwitchyardCore
import Testing

/// The replay and rollout experiments of `switchyard bench routing`, scaled down, against a test stack: the
/// sandbox declines 30 % of merchant A's payments and 5 % of B's.
@Suite(.serialized)
struct RoutingEvidenceExperimentTests {
    /// The adaptive experiment's scaled policy, a janitor that looks every 100 ms (rollouts are decided on
    /// its looks), and replay intervals at z = 4 (the bench is told with `--confidence-z 4`): the test
    /// judges one run, so its intervals are wide enough that a correct replay almost never misses.
    static let policy: @Sendable (inout PlatformPolicy) -> Void = { policy in
        AdaptiveRoutingExperimentTests.scaledPolicy(&policy)
        policy.janitor.pollMs = 100
        policy.adaptiveRouting.confidenceZ = 4
    }

    static func rollout(_ report: [String: Any], _ name: String) throws -> [String: Any] {
        let rollouts = report["rollouts"] as? [[String: Any]] ?? []
        return try #require(rollouts.first { $0["name"] as? String == name }, "no rollout \(name): \(rollouts)")
    }

    @Test func theReplayPredictsTheDraftsRateAndRolloutsRollBackABadDraftAndPromoteAGoodOne() async throws {
        // A seed of its own each run: with one fixed seed the sandbox would draw the same declines for the same
        // references every run, and the logged payments' decline share would sit off the configured one by the
        // same amount each time, which the intervals (made for a sample of the configured shares) do not cover.
        let seed = Int.random(in: 1...1_000_000)
        try await TestStack.with(policy: Self.policy) { stack in
            let report = try await AdaptiveRoutingExperimentTests.runBench(
                stack,
                [
                    "--experiments", "replay,rollout", "--seed", String(seed), "--replay-payments", "240",
                    "--confidence-z", "4",
                    "--rollout-share", "0.5", "--guardrail-pp", "3", "--rollout-min-samples", "60",
                    "--rollout-limit", "1200", "--in-flight", "4",
                ])
            #expect((report["phases"] as? [Any])?.isEmpty == true, "only replay and rollout ran")

            // Replay: German cards to A (about 70 % authorised), the rest to B (about 95 %).
            let replay = try #require(report["replay"] as? [String: Any], "no replay: \(report["notes"] ?? "-")")
            let segments = replay["segments"] as? [[String: Any]] ?? []
            let overall = try #require(segments.first { $0["segment"] as? String == "overall" }, "\(segments)")
            let predicted = overall["predicted"] as? [String: Any]
            #expect(predicted?["method"] as? String == "dr", "\(overall)")
            // The draft's true rate, (0.7 + 0.95) / 2 on alternating DE and FR traffic, lies in the replay's
            // interval; the rate 480 fresh payments achieved lies in the prediction interval.
            #expect(abs(AdaptiveRoutingExperimentTests.number(overall, "truth") - 0.825) < 1e-9, "\(overall)")
            #expect(
                overall["truth_inside"] as? Bool == true,
                "the truth outside the replay interval (seed \(seed)): \(overall)")
            #expect(overall["achieved_payments"] as? Int == 480, "twice the logged payments: \(overall)")
            #expect(
                overall["achieved_inside"] as? Bool == true,
                "achieved outside the prediction (seed \(seed)): \(overall)")
            let judged = segments.filter { $0["truth_inside"] is Bool && $0["achieved_inside"] is Bool }
            #expect(judged.count == 3, "overall, DE and FR have evidence: \(segments)")
            let germany = segments.first { $0["segment"] as? String == "DE EUR card" }
            let france = segments.first { $0["segment"] as? String == "FR EUR card" }
            #expect(
                AdaptiveRoutingExperimentTests.number(germany?["predicted"] as? [String: Any], "estimate")
                    < AdaptiveRoutingExperimentTests.number(france?["predicted"] as? [String: Any], "estimate"),
                "the replay tells the segments apart: \(segments)")

            // The bad draft (A) is rolled back by the guardrail, after a bounded number of answers. Checked after
            // every answer, this interval (70 % against 95 %, guardrail 3 pp, alpha 0.05, half the traffic on
            // the draft) first lies below -3 pp after a median of 115 draft answers; 1 % of runs need more than
            // 200 and 1.5e-4 more than 260 (40,000 simulated runs, none above 290), the tail falling about 70-fold
            // every 60 answers. The janitor decides on its looks, so the answers of one look's lag come on top.
            // 400 leaves under one run in ten million to chance and still fails a rollback that waits for the
            // rollout limit (about 600 draft answers).
            let bad = try Self.rollout(report, "bad draft")
            #expect(bad["status"] as? String == "rolled_back", "\(bad)")
            #expect(bad["reason"] as? String == "guardrail_breached", "\(bad)")
            let badDraft = bad["draft_arm"] as? [String: Any]
            let badControl = bad["control"] as? [String: Any]
            #expect(AdaptiveRoutingExperimentTests.number(badDraft, "samples") >= 20, "\(bad)")
            #expect(AdaptiveRoutingExperimentTests.number(badDraft, "samples") <= 400, "\(bad)")
            #expect(
                AdaptiveRoutingExperimentTests.number(badDraft, "rate")
                    < AdaptiveRoutingExperimentTests.number(badControl, "rate"), "\(bad)")
            // The rollback needs the whole interval below -3 pp; the report gives the bound to the hundredth, so
            // a bound of -3.004 reads -3.
            #expect(AdaptiveRoutingExperimentTests.number(bad, "upper_pp") <= -3, "\(bad)")
            let cost = try #require(bad["cost"] as? [String: Any], "\(bad)")
            #expect(AdaptiveRoutingExperimentTests.number(cost, "lost_authorisations") > 0, "\(bad)")

            // The good draft (B) is promoted once both arms have their min_samples answers.
            let good = try Self.rollout(report, "good draft")
            #expect(good["status"] as? String == "promoted", "\(good)")
            #expect(good["reason"] as? String == "within_guardrail", "\(good)")
            for arm in ["control", "draft_arm"] {
                #expect(
                    AdaptiveRoutingExperimentTests.number(good[arm] as? [String: Any], "samples") >= 60, "\(good)")
            }
        }
    }
}
