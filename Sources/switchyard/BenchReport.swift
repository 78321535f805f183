import Foundation

/// The server's resource use over one step, read from `/proc`.
struct ServerUsage: Codable, Equatable, Sendable {
    /// Peak resident set size (VmHWM) of the server process and its plugin workers so far, in MiB.
    var peakRSSMiB: Double
    /// CPU seconds (user + system) the server and its plugin workers spent per 1000 payments of the step.
    var cpuSecondsPer1000: Double
    /// Resident set size of the server and its plugin workers at the end of the step, in MiB.
    var rssMiB: Double?
    /// CPU seconds the sandbox process spent per 1000 payments; nil when it runs inside the server.
    var sandboxCPUSecondsPer1000: Double?
    /// Memory of the server and its plugin workers at the end of the step with each page counted once
    /// (``GroupMemory``), in MiB; nil in reports written before it was measured.
    var memoryMiB: Double?

    enum CodingKeys: String, CodingKey {
        case peakRSSMiB = "peak_rss_mib"
        case cpuSecondsPer1000 = "cpu_seconds_per_1000"
        case rssMiB = "rss_mib"
        case sandboxCPUSecondsPer1000 = "sandbox_cpu_seconds_per_1000"
        case memoryMiB = "memory_mib"
    }
}

/// One flow at one concurrency: Switchyard, the provider alone and the database ceiling, side by side.
struct BenchStep: Codable, Equatable, Sendable {
    var flow: String
    var concurrency: Int
    var switchyard: LoadMeasure
    /// The same provider calls sent straight to the sandbox; nil when not measured.
    var provider: LoadMeasure?
    /// pgbench with the payment-shaped script at the same concurrency; nil when not measured.
    var pgbench: LoadMeasure?
    var server: ServerUsage?

    /// Switchyard minus the provider alone, per percentile (milliseconds).
    var overhead: LatencySummary? { provider.map { switchyard.latency.minus($0.latency) } }

    /// Switchyard's throughput as a share of the pgbench ceiling (0...1).
    var ceilingRatio: Double? {
        guard let pgbench, pgbench.throughput > 0 else { return nil }
        return switchyard.throughput / pgbench.throughput
    }

    enum CodingKeys: String, CodingKey {
        case flow, concurrency, switchyard, provider, pgbench, server, overhead
        case ceilingRatio = "ceiling_ratio"
    }

    init(
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

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        flow = try c.decode(String.self, forKey: .flow)
        concurrency = try c.decode(Int.self, forKey: .concurrency)
        switchyard = try c.decode(LoadMeasure.self, forKey: .switchyard)
        provider = try c.decodeIfPresent(LoadMeasure.self, forKey: .provider)
        pgbench = try c.decodeIfPresent(LoadMeasure.self, forKey: .pgbench)
        server = try c.decodeIfPresent(ServerUsage.self, forKey: .server)
    }

    func encode(to encoder: any Encoder) throws {
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
struct BenchReport: Codable, Equatable, Sendable {
    /// The command line, for repeating the run.
    var command: String
    /// `embedded` or `url`.
    var mode: String
    /// Payments per flow and concurrency.
    var payments: Int
    var startedAt: String
    var steps: [BenchStep]
    /// Why a reference was skipped, and other remarks printed during the run.
    var notes: [String]
    /// Resident set size of the server and its plugin workers before the first payment, in MiB.
    var restRSSMiB: Double?
    /// The same with each page counted once (``GroupMemory``), in MiB.
    var restMemoryMiB: Double?

    enum CodingKeys: String, CodingKey {
        case command, mode, payments, steps, notes
        case startedAt = "started_at"
        case restRSSMiB = "rest_rss_mib"
        case restMemoryMiB = "rest_memory_mib"
    }

    /// Pretty, key-sorted JSON.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
