import Foundation
import SwitchyardCommands

extension BenchRoutingTable {
    static let replayHeader = ["replay segment", "n", "n_eff", "method", "predicted", "interval", "achieved", "inside"]
    static let rolloutHeader = [
        "rollout", "decision", "control n / rate", "draft n / rate", "draft − control (interval)", "lost vs control",
        "budget",
    ]

    /// The replay's and the rollouts' tables with a line per experiment saying what they showed (empty
    /// when the report has neither).
    func evidence() -> String {
        var text = ""
        if let replay = report.replay {
            text += "\nreplay: \(replay.loggedPayments) payments under \(replay.live), replayed for \(replay.draft); "
            text += "then \(replay.freshPayments) fresh payments with the draft live\n"
            text += BenchTable.render(header: Self.replayHeader, rows: replay.segments.map(replayRow))
            let judged = replay.segments.compactMap(\.inside)
            text += "replay: achieved rate inside the predicted interval in \(judged.filter { $0 }.count) of "
            text += "\(judged.count) segments with evidence\n"
        }
        if !report.rollouts.isEmpty {
            text += "\n" + BenchTable.render(header: Self.rolloutHeader, rows: report.rollouts.map(rolloutRow))
            text += report.rollouts.map { Self.verdict($0) + "\n" }.joined()
        }
        return text
    }

    /// One line saying what the rollout showed: decided as expected or not, and its cost against its budget.
    static func verdict(_ rollout: BenchRoutingReport.Rollout) -> String {
        let decided = rollout.status.map { "\($0) (\(rollout.reason ?? "-"))" } ?? "not decided"
        var line =
            "\(rollout.name): \(rollout.live) → \(rollout.draft) at \(BenchTable.number(rollout.share * 100, 0)) %, "
            + "guardrail \(BenchTable.number(rollout.guardrailPP, 1)) pp, min_samples \(rollout.minSamples): "
            + "\(decided) after \(rollout.paymentsSent) payments, expected \(rollout.expected)"
            + (rollout.asExpected ? "" : " — NOT AS EXPECTED")
        if let cost = rollout.cost, rollout.expected == "rolled_back" {
            line +=
                "; lost \(BenchTable.number(cost.lostAuthorisations, 1)) authorisations vs control, budget "
                + "\(BenchTable.number(cost.budget, 1)) (\(cost.withinBudget ? "within" : "OVER") budget)"
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
        return [
            segment.segment, "\(predicted.n)", predicted.nEff.map { BenchTable.number($0, 1) } ?? "-",
            predicted.method ?? "-", predicted.estimate.map(rate) ?? "-", interval,
            rate(segment.achievedRate) + " (\(segment.achievedPayments))",
            segment.inside.map { $0 ? "yes" : "no" } ?? "-",
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
            rollout.cost.map { BenchTable.number($0.budget, 1) } ?? "-",
        ]
    }

    private func rate(_ value: Double) -> String {
        BenchTable.number(value * 100, 1) + " %"
    }
}
