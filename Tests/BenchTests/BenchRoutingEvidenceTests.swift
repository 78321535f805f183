import Foundation
import Testing

@testable import switchyard

/// The routing experiment's judgement of a replay's prediction and of guarded rollouts, and how the
/// report prints them.
@Suite struct BenchRoutingEvidenceTests {
    private func payments(_ outcomes: String, country: String) -> [BenchRoutingPayment] {
        outcomes.map { BenchRoutingPayment(account: .b, approved: $0 == "y", country: country) }
    }

    private func rate(_ estimate: Double?, _ lower: Double?, _ upper: Double?, n: Int = 100) -> [String: Any] {
        var object: [String: Any] = [
            "method": "dr", "n": n, "n_eff": 48.5, "evidence": estimate == nil ? "not enough evidence" : "enough",
        ]
        object["estimate"] = estimate ?? NSNull()
        object["lower"] = lower ?? NSNull()
        object["upper"] = upper ?? NSNull()
        return ["authorization_rate": object]
    }

    @Test func replaySegmentsSetEachPredictionAgainstTheRateItsCountryAchieved() throws {
        let answer: [String: Any] = [
            "draft": rate(0.8, 0.7, 0.9, n: 200),
            "segments": [
                ["country": "DE", "currency": "EUR", "method": "card", "draft": rate(0.7, 0.6, 0.75)],
                ["country": "FR", "currency": "EUR", "method": "card", "draft": rate(0.9, 0.85, 0.98)],
                ["country": "IT", "currency": "EUR", "method": "card", "draft": rate(nil, nil, nil, n: 3)],
                ["country": "ES", "currency": "EUR", "method": "card", "draft": rate(0.5, 0.4, 0.6)],
            ],
        ]
        // DE: 8 of 10 (above its interval), FR: 9 of 10 (inside), IT: 1 of 1, ES: none sent.
        let fresh =
            payments("yyyyyyyynn", country: "DE") + payments("yyyyyyyyyn", country: "FR") + payments("y", country: "IT")
        let segments = BenchRoutingExperiment.replaySegments(answer, fresh: fresh)
        #expect(segments.map(\.segment) == ["overall", "DE EUR card", "FR EUR card", "IT EUR card", "ES EUR card"])
        let overall = segments[0]
        #expect(overall.predicted.n == 200 && overall.predicted.nEff == 48.5 && overall.predicted.method == "dr")
        #expect(overall.achievedPayments == 21)
        #expect(abs(overall.achievedRate - 18.0 / 21.0) < 1e-9)
        #expect(overall.inside == true)
        #expect(segments[1].achievedRate == 0.8 && segments[1].inside == false)
        #expect(segments[2].achievedRate == 0.9 && segments[2].inside == true)
        #expect(segments[3].predicted.evidence == "not enough evidence" && segments[3].predicted.estimate == nil)
        #expect(segments[3].inside == nil, "no interval, no judgement")
        #expect(segments[4].achievedPayments == 0 && segments[4].inside == nil, "no payments, no judgement")
    }

    @Test func theIntervalIncludesItsBounds() {
        let estimate = BenchRoutingReport.Estimate(method: "dr", n: 10, nEff: 10, estimate: 0.5, lower: 0.4, upper: 0.6)
        #expect(BenchRoutingReport.ReplaySegment.inside(0.4, estimate) == true)
        #expect(BenchRoutingReport.ReplaySegment.inside(0.6, estimate) == true)
        #expect(BenchRoutingReport.ReplaySegment.inside(0.39, estimate) == false)
        #expect(BenchRoutingReport.ReplaySegment.inside(0.61, estimate) == false)
    }

    @Test func aRollbackCostsTheDraftsAnswersTimesItsShortfallAgainstMinSamplesTimesTheGuardrail() {
        let control = BenchRoutingReport.Arm(samples: 60, approved: 57, rate: 0.95)
        let early = BenchRoutingReport.Cost(
            control: control, draft: .init(samples: 40, approved: 28, rate: 0.70), guardrailPP: 3, minSamples: 600)
        #expect(abs(early.shortfallPP - 25) < 1e-9)
        #expect(abs(early.lostAuthorisations - 10) < 1e-9)
        #expect(abs(early.budget - 18) < 1e-9)
        #expect(early.withinBudget)
        let late = BenchRoutingReport.Cost(
            control: control, draft: .init(samples: 100, approved: 70, rate: 0.70), guardrailPP: 3, minSamples: 600)
        #expect(abs(late.lostAuthorisations - 25) < 1e-9)
        #expect(!late.withinBudget)
        let better = BenchRoutingReport.Cost(
            control: .init(samples: 600, approved: 420, rate: 0.70),
            draft: .init(samples: 600, approved: 570, rate: 0.95), guardrailPP: 3, minSamples: 600)
        #expect(better.shortfallPP < 0 && better.lostAuthorisations < 0 && better.withinBudget)
    }

    private func rollout(expected: String) -> BenchRoutingReport.Rollout {
        BenchRoutingReport.Rollout(
            name: "bad draft", live: "B (5 % declined)", draft: "A (30 % declined)", expected: expected, share: 0.5,
            guardrailPP: 3, minSamples: 600, paymentsSent: 120, draftPayments: 61)
    }

    @Test func theDecisionAndItsFiguresAreReadFromTheRolloutsEvent() {
        var bad = rollout(expected: "rolled_back")
        BenchRoutingExperiment.decide(
            &bad,
            from: [
                "status": "rolled_back", "reason": "guardrail_breached",
                "control": ["samples": 60, "approved": 57, "rate": 0.95],
                "draft": ["samples": 40, "approved": 28, "rate": 0.7],
                "interval": ["difference_pp": -25.0, "lower_pp": -41.2, "upper_pp": -8.8],
            ])
        #expect(bad.status == "rolled_back" && bad.reason == "guardrail_breached" && bad.asExpected)
        #expect(bad.control == .init(samples: 60, approved: 57, rate: 0.95))
        #expect(bad.draftArm?.samples == 40)
        #expect(bad.differencePP == -25 && bad.lowerPP == -41.2 && bad.upperPP == -8.8)
        #expect(bad.cost?.withinBudget == true)

        let table = BenchRoutingTable(
            report: BenchRoutingReport(
                command: "switchyard bench routing", startedAt: "-", tenantId: "t", accountA: "a", accountB: "b",
                phases: [], rollouts: [bad, rollout(expected: "promoted")], notes: ["a note"])
        ).render()
        #expect(table.contains("| bad draft | rolled_back |      60 / 95.0 % |    40 / 70.0 % |"), "\(table)")
        #expect(table.contains("-25.0 pp (-41.2 … -8.8)"), "\(table)")
        #expect(
            table.contains(
                "bad draft: B (5 % declined) → A (30 % declined) at 50 %, guardrail 3.0 pp, min_samples 600: "
                    + "rolled_back (guardrail_breached) after 120 payments, expected rolled_back; lost 10.0 "
                    + "authorisations vs control, budget 18.0 (within budget)"), "\(table)")
        #expect(table.contains("not decided after 120 payments, expected promoted — NOT AS EXPECTED"), "\(table)")
        #expect(table.hasSuffix("a note\n"))
    }

    @Test func theReplayTableSaysHowManyJudgedSegmentsHeldTheAchievedRate() {
        let estimate = BenchRoutingReport.Estimate(
            method: "dr", n: 300, nEff: 150.25, estimate: 0.825, lower: 0.79, upper: 0.86)
        let none = BenchRoutingReport.Estimate(method: nil, n: 4, nEff: nil, estimate: nil, lower: nil, upper: nil)
        let achieved = BenchRoutingReport.window(payments("yyyyyyyyyn", country: "FR"), first: 1)
        let replay = BenchRoutingReport.Replay(
            live: "weighted A, B 1:1", draft: "DE to A, the rest to B", declineA: 0.3, declineB: 0.05,
            loggedPayments: 300, freshPayments: 300,
            segments: [
                .init(segment: "overall", predicted: estimate, achieved: achieved),
                .init(segment: "IT EUR card", predicted: none, achieved: achieved),
            ])
        let table = BenchRoutingTable(
            report: BenchRoutingReport(
                command: "-", startedAt: "-", tenantId: "t", accountA: "a", accountB: "b", phases: [], replay: replay,
                notes: [])
        ).render()
        #expect(
            table.contains(
                "| overall        | 300 | 150.2 |     dr |    82.5 % |     79.0 % – 86.0 % | 90.0 % (10) |     no |"),
            "\(table)")
        #expect(table.contains("not enough evidence"), "\(table)")
        #expect(table.contains("replay: achieved rate inside the predicted interval in 0 of 1 segments with evidence"))
    }

    @Test func experimentsAreChosenByName() throws {
        let both = try BenchRoutingCommand.parse(["--experiments", "replay, rollout"])
        #expect(both.selected == [.replay, .rollout])
        #expect(try BenchRoutingCommand.parse([]).selected == Set(BenchRoutingExperiment.Experiment.allCases))
        #expect(throws: (any Error).self) { try BenchRoutingCommand.parse(["--experiments", "replay,bogus"]) }
        #expect(throws: (any Error).self) { try BenchRoutingCommand.parse(["--rollout-share", "0.9"]) }
    }
}
