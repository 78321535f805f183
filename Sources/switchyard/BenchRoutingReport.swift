import Foundation
import SwitchyardBench
import SwitchyardCommands

/// What `switchyard bench routing` measured: per phase, each account's share of the payments and the
/// authorisation rate, overall and per window of payments; the replay's prediction against the rate its
/// draft achieved; and the guarded rollouts' decisions with what their drafts cost.
struct BenchRoutingReport: Codable, Sendable {
    /// Each account's share and the authorisation rate of consecutive payments.
    struct Window: Codable, Sendable, Equatable {
        /// First and last payment of the window, counted from 1 within the phase.
        var first: Int
        var last: Int
        var shareA: Double
        var shareB: Double
        /// Approved answers over definite answers (approved or declined).
        var authorisationRate: Double
        var errors: Int
    }

    /// One phase of the experiment.
    struct Phase: Codable, Sendable {
        var name: String
        /// The routing rule of the phase, e.g. `ordered A, B`.
        var rule: String
        /// The sandbox's decline shares during the phase.
        var declineA: Double
        var declineB: Double
        var overall: Window
        var windows: [Window]
        /// Recovery phase: payments sent until A's share over the last window reached one half (nil: it
        /// did not within the limit).
        var recoveredAfter: Int?
        /// The ranking of the phase's last payment, one `account: reason` line per candidate.
        var lastRanking: [String]?
    }

    var command: String
    var startedAt: String
    /// The tenant the adaptive experiment created, and its two accounts (empty when it did not run).
    var tenantId: String
    var accountA: String
    var accountB: String
    var phases: [Phase]
    var replay: Replay?
    var rollouts: [Rollout] = []
    var notes: [String]

    /// The report as pretty JSON with snake_case keys.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try encoder.encode(self)
    }

    /// The window of `payments` numbered from `first` (1-based).
    static func window(_ payments: [BenchRoutingPayment], first: Int) -> Window {
        let routed = payments.filter { $0.account != nil }.count
        let approved = payments.filter { $0.approved == true }.count
        let declined = payments.filter { $0.approved == false }.count
        func share(_ side: BenchRoutingPayment.Side) -> Double {
            routed == 0 ? 0 : Double(payments.filter { $0.account == side }.count) / Double(routed)
        }
        return Window(
            first: first, last: first + payments.count - 1, shareA: share(.a), shareB: share(.b),
            authorisationRate: approved + declined == 0 ? 0 : Double(approved) / Double(approved + declined),
            errors: payments.filter { $0.approved == nil }.count)
    }

    /// `payments` cut into windows of `size` (the last one may be shorter).
    static func windows(_ payments: [BenchRoutingPayment], size: Int) -> [Window] {
        stride(from: 0, to: payments.count, by: size).map { start in
            window(Array(payments[start..<min(start + size, payments.count)]), first: start + 1)
        }
    }
}

/// The table `switchyard bench routing` prints: a row per window and one per phase, the replay's and the
/// rollouts' tables (BenchRoutingTable+Evidence.swift), then the notes.
struct BenchRoutingTable {
    static let header = ["phase", "payments", "rule", "declines A/B", "share A", "share B", "authorised", "errors"]

    var report: BenchRoutingReport

    func render() -> String {
        var rows: [[String]] = []
        var lines: [String] = []
        for phase in report.phases {
            let declines = percent(phase.declineA) + " / " + percent(phase.declineB)
            for window in phase.windows {
                rows.append(row(phase.name, window, rule: phase.rule, declines: declines))
            }
            rows.append(row("**\(phase.name)**", phase.overall, rule: phase.rule, declines: declines))
            if phase.name == "recovery" {
                lines.append(
                    phase.recoveredAfter.map { "recovery: A's share returned after \($0) payments" }
                        ?? "recovery: A's share did not return within \(phase.overall.last) payments")
            }
            if let ranking = phase.lastRanking, !ranking.isEmpty {
                lines.append("\(phase.name): last payment ranked " + ranking.joined(separator: "; "))
            }
        }
        let phases = rows.isEmpty ? "" : BenchTable.render(header: Self.header, rows: rows)
        return phases + lines.map { $0 + "\n" }.joined() + evidence() + report.notes.map { $0 + "\n" }.joined()
    }

    private func row(_ name: String, _ window: BenchRoutingReport.Window, rule: String, declines: String) -> [String] {
        [
            name, "\(window.first)–\(window.last)", rule, declines, percent(window.shareA), percent(window.shareB),
            BenchTable.number(window.authorisationRate * 100, 1) + " %", "\(window.errors)",
        ]
    }

    private func percent(_ share: Double) -> String {
        BenchTable.number(share * 100, 0) + " %"
    }
}
