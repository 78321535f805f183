import Foundation
import SwitchyardCore
import TestWaiting
import Testing

/// The adaptive-routing experiment, scaled down: `switchyard bench routing` against a test stack, with
/// two Worldline Direct accounts on two sandbox merchants declining 30 % and 5 % of their payments.
@Suite(.serialized)
struct AdaptiveRoutingExperimentTests {
    /// Statistics that react within a scaled run: a short window, few samples, a high exploration
    /// share and a short cache. The tenant's rate limits are lifted, as `switchyard bench` lifts them: the
    /// experiment measures routing, and a server fast enough to exceed 100 requests/s would otherwise answer
    /// 429 to its payments.
    static let scaledPolicy: @Sendable (inout PlatformPolicy) -> Void = { policy in
        policy.tenants = .init(requestsPerSecond: 1_000_000, burst: 1_000_000, maxConcurrentRequests: 10_000)
        policy.adaptiveRouting.windowAttempts = 40
        policy.adaptiveRouting.minSamples = 10
        policy.adaptiveRouting.maxExplorationShare = 0.2
        policy.adaptiveRouting.explorationShare = 0.2
        policy.adaptiveRouting.statsCacheMs = 200
        // 40-answer windows are noisy; the fee phase's max_rate_loss must exceed their noise.
        policy.adaptiveRouting.maxRateLossLimit = 20
    }

    /// Runs `switchyard bench routing` against `stack` with `arguments`; returns its JSON report.
    static func runBench(_ stack: TestStack, _ arguments: [String]) async throws -> [String: Any] {
        let directory = NSTemporaryDirectory() + "routing-bench-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/bench.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestStack.buildDirectory + "/switchyard")
        process.arguments =
            [
                "bench", "routing", "--server", stack.baseURL, "--operator-token", stack.operatorToken, "--json-report",
                directory + "/report.json",
            ] + arguments
        process.standardOutput = handle
        process.standardError = handle
        let exit = ProcessExit(process)
        try process.run()
        // Generous bound so a hang fails the test instead of blocking the suite.
        if try await exit.status(within: .seconds(600)) == nil {
            process.terminate()
            throw TestFailure("switchyard bench routing did not finish within 600 s")
        }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try #require(process.terminationStatus == 0, "bench routing failed:\n\(output.suffix(4000))")
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func phase(_ report: [String: Any], _ name: String) throws -> [String: Any] {
        let phases = report["phases"] as? [[String: Any]] ?? []
        return try #require(
            phases.first { $0["name"] as? String == name }, "no phase \(name); notes: \(report["notes"] ?? "-")")
    }

    static func windows(_ phase: [String: Any]) -> [[String: Any]] {
        phase["windows"] as? [[String: Any]] ?? []
    }

    static func number(_ object: [String: Any]?, _ key: String) -> Double {
        (object?[key] as? NSNumber)?.doubleValue ?? -1
    }

    @Test func adaptiveMovesToTheBetterAccountRecoversAndPrefersTheCheaperOne() async throws {
        try await TestStack.with(policy: Self.scaledPolicy) { stack in
            let report = try await Self.runBench(
                stack,
                [
                    "--experiments", "adaptive", "--phase-payments", "200", "--window", "40", "--recovery-limit", "600",
                    "--max-rate-loss", "15",
                    "--in-flight", "4", "--fee-decline-a", "0.05",
                ])
            let ordered = try Self.phase(report, "ordered")
            let adaptive = try Self.phase(report, "adaptive")
            let recovery = try Self.phase(report, "recovery")
            let fees = try Self.phase(report, "fees")
            let summary = (report["phases"] as? [[String: Any]] ?? []).map {
                "\($0["name"] ?? "-"): \($0["overall"] ?? "-")"
            }.joined(separator: "\n")

            // Ordered A-first: every payment goes to A, which declines about 30 %.
            let orderedOverall = ordered["overall"] as? [String: Any]
            #expect(Self.number(orderedOverall, "share_a") == 1, "\(summary)")
            #expect(Self.number(orderedOverall, "errors") == 0, "\(summary)")
            #expect(abs(Self.number(orderedOverall, "authorisation_rate") - 0.70) < 0.1, "\(summary)")

            // Adaptive: the last windows belong to B, and more payments are authorised than A-first.
            let adaptiveOverall = adaptive["overall"] as? [String: Any]
            for window in Self.windows(adaptive).suffix(2) {
                #expect(Self.number(window, "share_b") > 0.5, "adaptive window \(window)")
            }
            #expect(
                Self.number(adaptiveOverall, "authorisation_rate")
                    > Self.number(orderedOverall, "authorisation_rate") + 0.03, "\(summary)")
            #expect(Self.number(adaptiveOverall, "errors") == 0, "\(summary)")

            // A recovers: exploration brings its share back within the bound.
            let recoveredAfter = try #require(
                (recovery["recovered_after"] as? NSNumber)?.intValue, "A's share did not return: \(summary)")
            #expect(recoveredAfter <= 600)

            // Equal decline rates, A much cheaper: A takes the last windows. The cost step compares the two
            // accounts' 40-answer windows at 95 %: B's reads more than 10 pp above A's on 1.1 % of looks (exact
            // binomial), which sent a whole window's traffic to B now and then; more than 15 pp on 0.07 %.
            for window in Self.windows(fees).suffix(2) {
                #expect(Self.number(window, "share_a") > 0.5, "fee window \(window)")
            }
            let ranking = fees["last_ranking"] as? [String] ?? []
            #expect(!ranking.isEmpty, "the payment's routing explains its ranking")
        }
    }
}
