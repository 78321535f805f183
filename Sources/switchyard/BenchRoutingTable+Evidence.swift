import Foundation
import SwitchyardBench
import SwitchyardCommands

extension BenchRoutingTable {
    static let replayHeader = [
        "replay segment", "n", "n_eff", "method", "predicted", "replay interval", "truth", "truth inside",
        "prediction interval", "achieved", "achieved inside",
    ]
    static let rolloutHeader = [
        "rollout", "decision", "control n / rate", "draft n / rate", "draft − control (interval)", "lost vs control",
        "allowance",
    ]

    /// The replay's and the rollouts' tables with a line per experiment saying what they showed (empty
    /// when the report has neither).
    func evidence() -> String {
        var text = ""
        if let replay = report.replay {
            text += "\nreplay: \(replay.loggedPayments) payments under \(replay.live), replayed for \(replay.draft); "
            text += "then \(replay.freshPayments) fresh payments with the draft live\n"
            text += BenchTable.render(header: Self.replayHeader, rows: replay.segments.map(replayRow))
            text += Self.replayLegend(z: replay.z)
            text += "replay: truth inside the replay interval in \(Self.count(replay.segments.map(\.truthInside))); "
            text += "achieved inside the prediction interval in \(Self.count(replay.segments.map(\.achievedInside)))\n"
        }
        if !report.rollouts.isEmpty {
            text += "\n" + BenchTable.render(header: Self.rolloutHeader, rows: report.rollouts.map(rolloutRow))
            text += report.rollouts.map { Self.verdict($0) + "\n" }.joined()
        }
        return text
    }

    /// What the replay table's intervals are.
    static func replayLegend(z: Double) -> String {
        let z = BenchTable.number(z, 2)
        return "replay interval: the replay's, for the draft's expected rate (truth: from the configured declines "
            + "and the traffic mix); prediction interval: for the rate of m fresh payments, p ± \(z)·√(se² + "
            + "p(1−p)/m), se = the replay interval's wider half / \(z), clamped to [0, 1]\n"
    }

    /// "k of n segments": of the judgements made (nil: none made), those that held.
    static func count(_ judgements: [Bool?]) -> String {
        let judged = judgements.compactMap { $0 }
        return "\(judged.filter { $0 }.count) of \(judged.count) segments"
    }

    /// One line saying what the rollout showed: decided as expected or not, and its cost against its allowance.
    static func verdict(_ rollout: BenchRoutingReport.Rollout) -> String {
        let decided = rollout.status.map { "\($0) (\(rollout.reason ?? "-"))" } ?? "not decided"
        var line =
            "\(rollout.name): \(rollout.live) → \(rollout.draft) at \(BenchTable.number(rollout.share * 100, 0)) %, "
            + "guardrail \(BenchTable.number(rollout.guardrailPP, 1)) pp, min_samples \(rollout.minSamples): "
            + "\(decided) after \(rollout.paymentsSent) payments, expected \(rollout.expected)"
            + (rollout.asExpected ? "" : " — NOT AS EXPECTED")
        if let cost = rollout.cost, rollout.expected == "rolled_back" {
            line +=
                "; lost \(BenchTable.number(cost.lostAuthorisations, 1)) authorisations vs control, allowance "
                + "\(BenchTable.number(cost.allowance, 1)) = guardrail × min_samples "
                + "(\(cost.withinAllowance ? "within" : "OVER") the allowance)"
        } else if let draft = rollout.draftArm, let control = rollout.control {
            line += "; draft arm \(draft.samples) answers, control \(control.samples)"
        }
        return line
    }

    private func replayRow(_ segment: BenchRoutingReport.ReplaySegment) -> [String] {
        let predicted = segment.predicted
        let interval: String
        if let lower = predicted.lower, let upper = predicted.upper {
            interval = rate(lower) + " – " + rate(upper)
        } else {
            interval = predicted.evidence
        }
        func verdict(_ inside: Bool?) -> String { inside.map { $0 ? "yes" : "no" } ?? "-" }
        return [
            segment.segment, "\(predicted.n)", predicted.nEff.map { BenchTable.number($0, 1) } ?? "-",
            predicted.method ?? "-", predicted.estimate.map(rate) ?? "-", interval, segment.truth.map(rate) ?? "-",
            verdict(segment.truthInside),
            segment.prediction.map { rate($0.lower) + " – " + rate($0.upper) } ?? "-",
            rate(segment.achievedRate) + " (\(segment.achievedPayments))", verdict(segment.achievedInside),
        ]
    }

    private func rolloutRow(_ rollout: BenchRoutingReport.Rollout) -> [String] {
        func arm(_ arm: BenchRoutingReport.Arm?) -> String {
            arm.map { "\($0.samples) / " + rate($0.rate) } ?? "-"
        }
        var difference = "-"
        if let pp = rollout.differencePP, let lower = rollout.lowerPP, let upper = rollout.upperPP {
            difference =
                "\(BenchTable.number(pp, 1)) pp (\(BenchTable.number(lower, 1)) … \(BenchTable.number(upper, 1)))"
        }
        return [
            rollout.name, rollout.status ?? "running", arm(rollout.control), arm(rollout.draftArm), difference,
            rollout.cost.map { BenchTable.number($0.lostAuthorisations, 1) } ?? "-",
            rollout.cost.map { BenchTable.number($0.allowance, 1) } ?? "-",
        ]
    }

    private func rate(_ value: Double) -> String {
        BenchTable.number(value * 100, 1) + " %"
    }
}
