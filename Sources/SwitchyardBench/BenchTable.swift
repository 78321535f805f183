import Foundation
import SwitchyardCommands

/// The summary table `switchyard bench` prints: one row per flow and concurrency, as a Markdown table
/// (readable in a terminal, pasted as is into BENCHMARKS.md).
package struct BenchTable {
    package static let header = [
        "flow", "conc", "payments/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors", "provider p50/p99",
        "overhead p50/p99", "pgbench tps", "pgbench p50/p99", "of ceiling", "CPU s/1000",
        "sandbox CPU s/1000", "RSS MiB", "peak RSS MiB", "memory MiB", "ctx switches/payment",
        "threads server/workers",
    ]

    package var steps: [BenchStep]

    /// The cells of one step's row; `–` where a reference was not measured.
    package static func row(_ step: BenchStep) -> [String] {
        let s = step.switchyard
        let missing = "–"
        return [
            step.flow, "\(step.concurrency)", number(s.throughput, 1), number(s.latency.p50, 1),
            number(s.latency.p90, 1), number(s.latency.p99, 1), number(s.latency.max, 1), s.errorText,
            step.provider.map { pair($0.latency.p50, $0.latency.p99) } ?? missing,
            step.overhead.map { pair($0.p50, $0.p99) } ?? missing,
            step.pgbench.map { number($0.throughput, 0) } ?? missing,
            step.pgbench.map { pair($0.latency.p50, $0.latency.p99) } ?? missing,
            step.ceilingRatio.map { number($0 * 100, 0) + " %" } ?? missing,
            step.server.map { number($0.cpuSecondsPer1000, 2) } ?? missing,
            step.server?.sandboxCPUSecondsPer1000.map { number($0, 2) } ?? missing,
            step.server?.rssMiB.map { number($0, 0) } ?? missing,
            step.server.map { number($0.peakRSSMiB, 0) } ?? missing,
            step.server?.memoryMiB.map { number($0, 0) } ?? missing,
            step.server?.contextSwitchesPerPayment.map { number($0, 1) } ?? missing,
            step.server.flatMap { usage in
                usage.serverThreads.flatMap { server in usage.workerThreads.map { "\(server) / \($0)" } }
            } ?? missing,
        ]
    }

    /// The table's text, columns padded to their widest cell, numbers right-aligned.
    package func render() -> String {
        Self.render(header: Self.header, rows: steps.map(Self.row))
    }

    /// A Markdown table of `rows` under `header`, columns padded to their widest cell, all but the first
    /// right-aligned.
    package static func render(header: [String], rows body: [[String]]) -> String {
        let rows = [header] + body
        var widths = [Int](repeating: 0, count: header.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule =
            "|"
            + widths.enumerated().map { index, width in
                String(repeating: "-", count: width + 1) + (index == 0 ? "-" : ":")
            }.joined(separator: "|") + "|"
        return ([line(rows[0]), rule] + rows.dropFirst().map(line)).joined(separator: "\n") + "\n"
    }

    /// `value` with `digits` decimals (C locale).
    package static func number(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// `a / b` with one decimal each.
    package static func pair(_ a: Double, _ b: Double) -> String {
        number(a, 1) + " / " + number(b, 1)
    }
}
