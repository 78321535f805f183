import Foundation
import SwitchyardCommands

/// The server's resource use over one step, read from `/proc`.
package struct ServerUsage: Codable, Equatable, Sendable {
    /// Peak resident set size (VmHWM) of the server process and its plugin workers so far, in MiB.
    package var peakRSSMiB: Double
    /// CPU seconds (user + system) the server and its plugin workers spent per 1000 payments of the step.
    package var cpuSecondsPer1000: Double
    /// Resident set size of the server and its plugin workers at the end of the step, in MiB.
    package var rssMiB: Double?
    /// CPU seconds the sandbox process spent per 1000 payments; nil when it runs inside the server.
    package var sandboxCPUSecondsPer1000: Double?
    /// Memory of the server and its plugin workers at the end of the step with each page counted once
    /// (``GroupMemory``), in MiB; nil in reports written before it was measured.
    package var memoryMiB: Double?
    /// Context switches of every thread of the server and its plugin workers over the step, per successful
    /// payment; nil when not measured.
    package var contextSwitchesPerPayment: Double?
    /// The server process's threads at the end of the step; nil when not measured.
    package var serverThreads: Int?
    /// The plugin workers' threads at the end of the step, summed; nil when not measured.
    package var workerThreads: Int?

    package init(
        peakRSSMiB: Double, cpuSecondsPer1000: Double, rssMiB: Double? = nil, sandboxCPUSecondsPer1000: Double? = nil,
        memoryMiB: Double? = nil, contextSwitchesPerPayment: Double? = nil, serverThreads: Int? = nil,
        workerThreads: Int? = nil
    ) {
        self.peakRSSMiB = peakRSSMiB
        self.cpuSecondsPer1000 = cpuSecondsPer1000
        self.rssMiB = rssMiB
        self.sandboxCPUSecondsPer1000 = sandboxCPUSecondsPer1000
        self.memoryMiB = memoryMiB
        self.contextSwitchesPerPayment = contextSwitchesPerPayment
        self.serverThreads = serverThreads
        self.workerThreads = workerThreads
    }

    package enum CodingKeys: String, CodingKey {
        case peakRSSMiB = "peak_rss_mib"
        case cpuSecondsPer1000 = "cpu_seconds_per_1000"
        case rssMiB = "rss_mib"
        case sandboxCPUSecondsPer1000 = "sandbox_cpu_seconds_per_1000"
        case memoryMiB = "memory_mib"
        case contextSwitchesPerPayment = "context_switches_per_payment"
        case serverThreads = "server_threads"
        case workerThreads = "worker_threads"
    }
}

/// One flow at one concurrency: Switchyard, the provider alone and the database ceiling, side by side.
package struct BenchStep: Codable, Equatable, Sendable {
    package var flow: String
    package var concurrency: Int
    package var switchyard: LoadMeasure
    /// The same provider calls sent straight to the sandbox; nil when not measured.
    package var provider: LoadMeasure?
    /// pgbench with the payment-shaped script at the same concurrency; nil when not measured.
    package var pgbench: LoadMeasure?
    package var server: ServerUsage?

    /// Switchyard minus the provider alone, per percentile (milliseconds).
    package var overhead: LatencySummary? { provider.map { switchyard.latency.minus($0.latency) } }

    /// Switchyard's throughput as a share of the pgbench ceiling (0...1).
    package var ceilingRatio: Double? {
        guard let pgbench, pgbench.throughput > 0 else { return nil }
        return switchyard.throughput / pgbench.throughput
    }

    package enum CodingKeys: String, CodingKey {
        case flow, concurrency, switchyard, provider, pgbench, server, overhead
        case ceilingRatio = "ceiling_ratio"
    }

    package init(
        flow: String, concurrency: Int, switchyard: LoadMeasure, provider: LoadMeasure? = nil,
        pgbench: LoadMeasure? = nil, server: ServerUsage? = nil
    ) {
        self.flow = flow
        self.concurrency = concurrency
        self.switchyard = switchyard
        self.provider = provider
        self.pgbench = pgbench
        self.server = server
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        flow = try c.decode(String.self, forKey: .flow)
        concurrency = try c.decode(Int.self, forKey: .concurrency)
        switchyard = try c.decode(LoadMeasure.self, forKey: .switchyard)
        provider = try c.decodeIfPresent(LoadMeasure.self, forKey: .provider)
        pgbench = try c.decodeIfPresent(LoadMeasure.self, forKey: .pgbench)
        server = try c.decodeIfPresent(ServerUsage.self, forKey: .server)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(flow, forKey: .flow)
        try c.encode(concurrency, forKey: .concurrency)
        try c.encode(switchyard, forKey: .switchyard)
        try c.encodeIfPresent(provider, forKey: .provider)
        try c.encodeIfPresent(pgbench, forKey: .pgbench)
        try c.encodeIfPresent(server, forKey: .server)
        try c.encodeIfPresent(overhead, forKey: .overhead)
        try c.encodeIfPresent(ceilingRatio, forKey: .ceilingRatio)
    }
}

/// Everything one `switchyard bench` run measured, as `--json` writes it.
package struct BenchReport: Codable, Equatable, Sendable {
    /// The command line, for repeating the run.
    package var command: String
    /// `embedded` or `url`.
    package var mode: String
    /// Payments per flow and concurrency.
    package var payments: Int
    package var startedAt: String
    package var steps: [BenchStep]
    /// Why a reference was skipped, and other remarks printed during the run.
    package var notes: [String]
    /// Resident set size of the server and its plugin workers before the first payment, in MiB.
    package var restRSSMiB: Double?
    /// The same with each page counted once (``GroupMemory``), in MiB.
    package var restMemoryMiB: Double?
    /// The server process's threads before the first payment.
    package var restServerThreads: Int?
    /// The plugin workers' threads before the first payment, summed.
    package var restWorkerThreads: Int?

    package enum CodingKeys: String, CodingKey {
        case command, mode, payments, steps, notes
        case startedAt = "started_at"
        case restRSSMiB = "rest_rss_mib"
        case restMemoryMiB = "rest_memory_mib"
        case restServerThreads = "rest_server_threads"
        case restWorkerThreads = "rest_worker_threads"
    }

    /// Pretty, key-sorted JSON.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
