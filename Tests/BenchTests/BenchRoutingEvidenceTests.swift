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
        // DE: 8 of 10, FR: 9 of 10, IT: 1 of 1, ES: none sent.
        let fresh =
            payments("yyyyyyyynn", country: "DE") + payments("yyyyyyyyyn", country: "FR") + payments("y", country: "IT")
        let truth = ["DE": 0.72, "FR": 0.99, "IT": 0.5, "ES": 0.45]
        let segments = BenchRoutingExperiment.replaySegments(answer, fresh: fresh, truth: truth, z: 2)
        #expect(segments.map(\.segment) == ["overall", "DE EUR card", "FR EUR card", "IT EUR card", "ES EUR card"])
        let overall = segments[0]
        #expect(overall.predicted.n == 200 && overall.predicted.nEff == 48.5 && overall.predicted.method == "dr")
        #expect(overall.achievedPayments == 21)
        #expect(abs(overall.achievedRate - 18.0 / 21.0) < 1e-9)
        // The overall truth weighs each segment's by its logged payments: 100 DE, 100 FR, 3 IT, 100 ES.
        let overallTruth = try #require(overall.truth)
        #expect(abs(overallTruth - (72 + 99 + 1.5 + 45) / 303) < 1e-9)
        #expect(overall.truthInside == true, "0.718 lies in 0.7 … 0.9")
        // DE: 0.72 in 0.6 … 0.75; achieved 0.8 is above the replay interval but inside the prediction
        // interval 0.7 ± 2·√((0.1 / 2)² + 0.7·0.3 / 10), clamped at 1.
        let germany = segments[1]
        #expect(germany.truthInside == true && germany.achievedRate == 0.8)
        #expect(BenchRoutingReport.ReplaySegment.inside(0.8, germany.predicted) == false)
        let prediction = try #require(germany.prediction)
        #expect(abs(prediction.lower - (0.7 - 2 * (0.0025 + 0.021).squareRoot())) < 1e-9)
        #expect(prediction.upper == 1)
        #expect(germany.achievedInside == true)
        // FR: the truth 0.99 lies above the replay interval 0.85 … 0.98.
        #expect(segments[2].truthInside == false && segments[2].achievedInside == true)
        #expect(segments[3].predicted.evidence == "not enough evidence" && segments[3].predicted.estimate == nil)
        #expect(segments[3].truthInside == nil && segments[3].achievedInside == nil, "no interval, no judgement")
        #expect(segments[3].prediction == nil)
        #expect(segments[4].truthInside == true)
        #expect(segments[4].achievedPayments == 0 && segments[4].achievedInside == nil, "no payments, no judgement")

        let unknown = BenchRoutingExperiment.replaySegments(answer, fresh: fresh, truth: ["DE": 0.7], z: 2)
        #expect(unknown[0].truth == nil && unknown[0].truthInside == nil, "no overall truth unless every segment's")
        #expect(unknown[2].truth == nil && unknown[2].truthInside == nil)
    }

    @Test func thePredictionIntervalAddsTheFreshSamplesNoiseToTheEstimates() throws {
        // se = 0.04 / 1.96; over 400 fresh payments the binomial variance 0.8·0.2 / 400 adds to se².
        let estimate = BenchRoutingReport.Estimate(
            method: "dr", n: 300, nEff: 150, estimate: 0.8, lower: 0.76, upper: 0.84)
        let interval = try #require(BenchRoutingReport.PredictionInterval(estimate, fresh: 400, z: 1.96))
        let half = 1.96 * ((0.04 / 1.96) * (0.04 / 1.96) + 0.8 * 0.2 / 400).squareRoot()
        #expect(abs(interval.lower - (0.8 - half)) < 1e-12 && abs(interval.upper - (0.8 + half)) < 1e-12)
        #expect(interval.lower < 0.76 && interval.upper > 0.84, "wider than the replay's interval")
        #expect(interval.contains(0.75) && !interval.contains(0.74) && !interval.contains(0.86))
        // More fresh payments, a sharper interval that never gets narrower than the replay's own.
        let sharper = try #require(BenchRoutingReport.PredictionInterval(estimate, fresh: 1_000_000, z: 1.96))
        #expect(sharper.lower > interval.lower && sharper.lower < 0.76 && abs(sharper.lower - 0.76) < 1e-3)
    }

    @Test func thePredictionIntervalIsClampedAndTakesTheWiderSideOfAClampedEstimate() throws {
        // The replay clamped its upper end at 1: the half-width is the lower side's 0.03.
        let high = BenchRoutingReport.Estimate(method: "dr", n: 100, nEff: 60, estimate: 0.98, lower: 0.95, upper: 1)
        let interval = try #require(BenchRoutingReport.PredictionInterval(high, fresh: 50, z: 1.96))
        let half = 1.96 * ((0.03 / 1.96) * (0.03 / 1.96) + 0.98 * 0.02 / 50).squareRoot()
        #expect(abs(interval.lower - (0.98 - half)) < 1e-12)
        #expect(interval.upper == 1)
        let low = BenchRoutingReport.Estimate(method: "dr", n: 100, nEff: 60, estimate: 0.01, lower: 0, upper: 0.04)
        #expect(try #require(BenchRoutingReport.PredictionInterval(low, fresh: 20, z: 1.96)).lower == 0)
        #expect(BenchRoutingReport.PredictionInterval(high, fresh: 0, z: 1.96) == nil)
        #expect(BenchRoutingReport.PredictionInterval(high, fresh: 10, z: 0) == nil)
        let none = BenchRoutingReport.Estimate(method: nil, n: 4, nEff: nil, estimate: nil, lower: nil, upper: nil)
        #expect(BenchRoutingReport.PredictionInterval(none, fresh: 10, z: 1.96) == nil)
    }

    @Test func theIntervalIncludesItsBounds() {
        let estimate = BenchRoutingReport.Estimate(method: "dr", n: 10, nEff: 10, estimate: 0.5, lower: 0.4, upper: 0.6)
        #expect(BenchRoutingReport.ReplaySegment.inside(0.4, estimate) == true)
        #expect(BenchRoutingReport.ReplaySegment.inside(0.6, estimate) == true)
        #expect(BenchRoutingReport.ReplaySegment.inside(0.39, estimate) == false)
        #expect(BenchRoutingReport.ReplaySegment.inside(0.61, estimate) == false)
    }

    @Test func aRollbackCostsTheDraftsAnswersTimesItsShortfallAgainstTheGuardrailTimesMinSamples() {
        let control = BenchRoutingReport.Arm(samples: 60, approved: 57, rate: 0.95)
        let early = BenchRoutingReport.Cost(
            control: control, draft: .init(samples: 40, approved: 28, rate: 0.70), guardrailPP: 3, minSamples: 600)
        #expect(abs(early.shortfallPP - 25) < 1e-9)
        #expect(abs(early.lostAuthorisations - 10) < 1e-9)
        #expect(abs(early.allowance - 18) < 1e-9)
        #expect(early.withinAllowance)
        let late = BenchRoutingReport.Cost(
            control: control, draft: .init(samples: 100, approved: 70, rate: 0.70), guardrailPP: 3, minSamples: 600)
        #expect(abs(late.lostAuthorisations - 25) < 1e-9)
        #expect(!late.withinAllowance)
        let better = BenchRoutingReport.Cost(
            control: .init(samples: 600, approved: 420, rate: 0.70),
            draft: .init(samples: 600, approved: 570, rate: 0.95), guardrailPP: 3, minSamples: 600)
        #expect(better.shortfallPP < 0 && better.lostAuthorisations < 0 && better.withinAllowance)
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
        #expect(bad.cost?.withinAllowance == true)

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
                    + "authorisations vs control, allowance 18.0 = guardrail × min_samples (within the allowance)"),
            "\(table)")
        #expect(table.contains("not decided after 120 payments, expected promoted — NOT AS EXPECTED"), "\(table)")
        #expect(table.hasSuffix("a note\n"))
    }

    @Test func theReplayTableSetsTheTruthAgainstTheReplayAndTheAchievedRateAgainstThePrediction() {
        let estimate = BenchRoutingReport.Estimate(
            method: "dr", n: 300, nEff: 150.25, estimate: 0.825, lower: 0.79, upper: 0.86)
        let none = BenchRoutingReport.Estimate(method: nil, n: 4, nEff: nil, estimate: nil, lower: nil, upper: nil)
        let achieved = BenchRoutingReport.window(payments("yyyyyyyyyn", country: "FR"), first: 1)
        let replay = BenchRoutingReport.Replay(
            live: "weighted A, B 1:1", draft: "DE to A, the rest to B", declineA: 0.3, declineB: 0.05,
            loggedPayments: 300, freshPayments: 300, z: 1.96,
            segments: [
                .init(segment: "overall", predicted: estimate, truth: 0.78, achieved: achieved, z: 1.96),
                .init(segment: "IT EUR card", predicted: none, truth: nil, achieved: achieved, z: 1.96),
            ])
        let table = BenchRoutingTable(
            report: BenchRoutingReport(
                command: "-", startedAt: "-", tenantId: "t", accountA: "a", accountB: "b", phases: [], replay: replay,
                notes: [])
        ).render()
        // 0.825 ± 1.96·√((0.035 / 1.96)² + 0.825·0.175 / 10): 58.7 % to 106.3 %, clamped at 100 %.
        #expect(
            table.contains(
                "| overall        | 300 | 150.2 |     dr |    82.5 % |     79.0 % – 86.0 % | 78.0 % |           no "
                    + "|    58.7 % – 100.0 % | 90.0 % (10) |             yes |"), "\(table)")
        #expect(table.contains("not enough evidence"), "\(table)")
        #expect(table.contains("p ± 1.96·√(se² + p(1−p)/m), se = the replay interval's wider half / 1.96"), "\(table)")
        #expect(
            table.contains(
                "replay: truth inside the replay interval in 0 of 1 segments; "
                    + "achieved inside the prediction interval in 1 of 1 segments"), "\(table)")
    }

    @Test func experimentsAreChosenByName() throws {
        let both = try BenchRoutingCommand.parse(["--experiments", "replay, rollout"])
        #expect(both.selected == [.replay, .rollout])
        #expect(try BenchRoutingCommand.parse([]).selected == Set(BenchRoutingExperiment.Experiment.allCases))
        #expect(throws: (any Error).self) { try BenchRoutingCommand.parse(["--experiments", "replay,bogus"]) }
        #expect(throws: (any Error).self) { try BenchRoutingCommand.parse(["--rollout-share", "0.9"]) }
        #expect(throws: (any Error).self) { try BenchRoutingCommand.parse(["--confidence-z", "0"]) }
        #expect(throws: (any Error).self) { try BenchRoutingCommand.parse(["--replay-fresh-payments", "0"]) }
        let defaults = try BenchRoutingCommand.parse([])
        #expect(defaults.rolloutMinSamples == 2000 && defaults.replayFreshPayments == nil)
    }
}
