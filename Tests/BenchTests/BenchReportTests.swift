import Foundation
import Testing

@testable import SwitchyardBench
@testable import SwitchyardCommands

struct BenchReportTests {
    @Test func theJSONCarriesEveryFigureAndTheDerivedOnes() throws {
        let report = BenchReport(
            command: "switchyard bench --payments 100", mode: "embedded", payments: 100,
            startedAt: "2026-11-24T07:00:00Z", steps: [BenchSamples.full, BenchSamples.bare],
            notes: ["pgbench ceiling skipped"], restServerThreads: 12, restWorkerThreads: 32)
        let data = try report.json()
        #expect(try JSONDecoder().decode(BenchReport.self, from: data) == report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        let full = steps[0]
        #expect(full["ceiling_ratio"] as? Double == 0.1)
        let overhead = try #require(full["overhead"] as? [String: Any])
        #expect(overhead["p50"] as? Double == 15)
        #expect(overhead["p99"] as? Double == 31)
        let server = try #require(full["server"] as? [String: Any])
        #expect(server["peak_rss_mib"] as? Double == 123.4)
        #expect(server["context_switches_per_payment"] as? Double == 41.25)
        #expect(server["server_threads"] as? Int == 14)
        #expect(server["worker_threads"] as? Int == 36)
        #expect(object["rest_server_threads"] as? Int == 12)
        #expect(object["rest_worker_threads"] as? Int == 32)
        let switchyard = try #require(full["switchyard"] as? [String: Any])
        #expect(switchyard["errors"] as? [String: Int] == ["503": 2])
        // A step without references has none of their keys.
        #expect(steps[1]["provider"] == nil && steps[1]["overhead"] == nil && steps[1]["ceiling_ratio"] == nil)
    }
}

struct BenchProcessTests {
    @Test func statFieldsAreReadAfterTheCommandName() throws {
        let line = "4242 (switch yard) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 123 456 789\n"
        let stat = try #require(ProcessSample.parseStat(line, ticksPerSecond: 100))
        #expect(stat.name == "switch yard")
        #expect(stat.parent == 17)
        #expect(stat.cpuSeconds == 3)
        #expect(ProcessSample.parseStat("garbage", ticksPerSecond: 100) == nil)
    }

    @Test func thePeakResidentSizeIsVmHWM() {
        let status = "Name:\tswitchyard\nVmPeak:\t  900000 kB\nVmHWM:\t   51200 kB\nVmRSS:\t   40000 kB\n"
        #expect(ProcessSample.parseHighWaterMark(status) == 51200)
        #expect(ProcessSample.parseHighWaterMark("Name:\tx\n") == nil)
        #expect(ProcessSample.parseField("VmRSS:", status) == 40000)
        let usage = ProcessSample.usage(
            from: ProcessSample(cpuSeconds: 10, peakRSSKiB: 0),
            to: ProcessSample(cpuSeconds: 15, peakRSSKiB: 51200, rssKiB: 40960, memoryKiB: 30720), payments: 500)
        #expect(usage == ServerUsage(peakRSSMiB: 50, cpuSecondsPer1000: 10, rssMiB: 40, memoryMiB: 30))
    }

    @Test func theSandboxCPUIsCountedApartFromTheServer() {
        let usage = ProcessSample.usage(
            from: ProcessSample(cpuSeconds: 10, peakRSSKiB: 0), to: ProcessSample(cpuSeconds: 11, peakRSSKiB: 1024),
            payments: 500,
            sandbox: (ProcessSample(cpuSeconds: 3, peakRSSKiB: 0), ProcessSample(cpuSeconds: 4.5, peakRSSKiB: 0)))
        #expect(usage.cpuSecondsPer1000 == 2)
        #expect(usage.sandboxCPUSecondsPer1000 == 3)
    }

    @Test func thisProcessCanBeSampled() throws {
        let sample = try #require(ProcessSample.read(pid: getpid()))
        #expect(sample.peakRSSKiB > 0)
        #expect(sample.cpuSeconds >= 0)
    }
}

struct BenchPgbenchTests {
    @Test func throughputAndLatenciesComeFromPgbenchOutput() {
        let output = """
            number of transactions actually processed: 2000/2000
            latency average = 2.113 ms
            initial connection time = 12.345 ms
            tps = 1489.123456 (without initial connection time)
            """
        #expect(BenchPgbench.tps(in: output) == 1489.123456)
        #expect(BenchPgbench.tps(in: "nothing") == nil)
        #expect(
            BenchPgbench.latencies(inLog: "0 0 1500 0 1700000000 1\n0 1 2500 0 1700000000 2\n") == [0.0015, 0.0025])
    }

    @Test func theScriptInsertsThenUpdatesTheSameRowInTwoStatements() {
        let script = BenchPgbench.script(table: "t")
        let statements = script.split(separator: "\n").filter { !$0.hasPrefix("\\set") && !$0.isEmpty }
        #expect(statements.count == 2)
        #expect(statements[0].hasPrefix("INSERT INTO t ") && statements[0].hasSuffix("RETURNING id \\gset"))
        #expect(statements[1].hasPrefix("UPDATE t ") && statements[1].contains("WHERE id = :id"))
        #expect(!script.contains("BEGIN"))
    }
}
