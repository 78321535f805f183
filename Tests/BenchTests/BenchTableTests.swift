import Foundation
import Testing

@testable import SwitchyardBench
@testable import SwitchyardCommands

/// Steps shared by the table, plot and report tests.
enum BenchSamples {
    static func measure(_ p50: Double, _ p99: Double, throughput: Double, errors: [String: Int] = [:]) -> LoadMeasure {
        LoadMeasure(
            count: 100, seconds: 100 / throughput, throughput: throughput,
            latency: LatencySummary(p50: p50, p90: (p50 + p99) / 2, p99: p99, max: p99 * 1.5), errors: errors)
    }

    static let full = BenchStep(
        flow: "citcon", concurrency: 8, switchyard: measure(20, 40, throughput: 100, errors: ["503": 2]),
        provider: measure(5, 9, throughput: 400), pgbench: measure(2, 6, throughput: 1000),
        server: ServerUsage(
            peakRSSMiB: 123.4, cpuSecondsPer1000: 9.876, rssMiB: 100.2, sandboxCPUSecondsPer1000: 1.5,
            memoryMiB: 80.6, contextSwitchesPerPayment: 41.25, serverThreads: 14, workerThreads: 36))

    static let bare = BenchStep(flow: "antom", concurrency: 1, switchyard: measure(3, 7, throughput: 50))
}

struct BenchTableTests {
    @Test func aRowShowsEveryFigureAndTheReferences() {
        #expect(
            BenchTable.row(BenchSamples.full) == [
                "citcon", "8", "100.0", "20.0", "30.0", "40.0", "60.0", "503×2", "5.0 / 9.0", "15.0 / 31.0", "1000",
                "2.0 / 6.0", "10 %", "9.88", "1.50", "100", "123", "81", "41.2", "14 / 36",
            ])
    }

    @Test func missingReferencesAreDashes() {
        let row = BenchTable.row(BenchSamples.bare)
        #expect(row[7] == "0")
        #expect(Array(row[8...]) == Array(repeating: "–", count: 12))
    }

    @Test func theTableIsAlignedMarkdown() {
        let text = BenchTable(steps: [BenchSamples.full, BenchSamples.bare]).render()
        let lines = text.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("| flow "))
        #expect(lines[1].allSatisfy { "|-: ".contains($0) })
        // Every line has the same width and the same number of columns.
        #expect(Set(lines.map(\.count)).count == 1)
        #expect(Set(lines.map { $0.filter { $0 == "|" }.count }) == [BenchTable.header.count + 1])
        #expect(lines[2].contains("| citcon |"))
    }
}
