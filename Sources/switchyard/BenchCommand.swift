import ArgumentParser
import Foundation
import Logging
import SwitchyardStore

/// `switchyard bench`: drives payments through Switchyard at a sweep of concurrencies and measures them
/// against two references taken in the same run: the database ceiling (pgbench, payment-shaped) and
/// the provider alone (the same sandbox calls without Switchyard).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure payments/s, latency and server cost against the database and provider references.",
        subcommands: [BenchRoutingCommand.self])

    @Option(help: "A running server to measure (default: start the embedded default in a child process).")
    var url: String?

    @Option(help: "The API key for --url (payments scope).")
    var apiKey: String?

    @Option(
        name: .customLong("database-url"),
        help: "With --url: the server's database, for the pgbench ceiling (skipped without it).")
    var databaseURL: String?

    @Option(help: "With --url: the embedded server's data directory (its demo.json) for the sandbox references.")
    var demoDir: String?

    @Option(help: "Concurrencies to sweep, comma-separated.")
    var concurrency: String = "1,8,32"

    @Option(help: "Payments per flow and concurrency.")
    var payments: Int = 2000

    @Option(help: "Payments per flow sent before measuring (not counted).")
    var warmup: Int = 100

    @Option(
        help: """
            Flows, comma-separated: citcon (session flow), antom (stored-credential charge), worldline (card \
            encrypted by the app, then /complete).
            """)
    var flow: String = "citcon,antom,worldline"

    @Flag(
        help: """
            Run the sandboxes inside the embedded server, as `switchyard serve` alone does (by default they run \
            in a process of their own, so the server's CPU excludes them).
            """)
    var inProcessSandbox = false

    @Flag(help: "Send payments without an Idempotency-Key (by default each carries one).")
    var noIdempotencyKey = false

    @Option(help: "Write every figure to this JSON file.")
    var json: String?

    @Option(help: "Write an SVG of the latency percentiles to this file.")
    var plot: String?

    @Option(help: "Data directory of the embedded server (default: a new temporary directory, removed after).")
    var dataDir: String?

    func validate() throws {
        guard payments > 0 else { throw ValidationError("--payments must be positive") }
        guard warmup >= 0 else { throw ValidationError("--warmup must not be negative") }
        guard let levels = concurrencies, !levels.isEmpty, levels.allSatisfy({ (1...1024).contains($0) }) else {
            throw ValidationError("--concurrency must list numbers from 1 to 1024, e.g. 1,8,32")
        }
        guard !flows.isEmpty, flows.allSatisfy(BenchFlows.names.contains) else {
            throw ValidationError("--flow must list flows among \(BenchFlows.names.joined(separator: ","))")
        }
        if url != nil && apiKey == nil && demoDir == nil {
            throw ValidationError("--url needs --api-key (or --demo-dir with its demo.json)")
        }
    }

    var concurrencies: [Int]? {
        let parts = concurrency.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        return parts.contains(nil) ? nil : parts.compactMap { $0 }
    }

    var flows: [String] {
        flow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    func run() async throws {
        var logger = try CommandSupport.logger("switchyard.bench")
        logger.logLevel = .warning
        var notes: [String] = []
        func note(_ text: String) {
            notes.append(text)
            BenchProgress.write(text + "\n")
        }
        let workDirectory = NSTemporaryDirectory() + "switchyard-bench-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: workDirectory) }

        var server: BenchServer?
        var target: BenchTarget
        var pgbench: BenchPgbench?
        let pgbenchBinary = BenchPgbench.find()
        if let url {
            var known =
                try demoDir.map { try BenchServer.target(demoDirectory: CommandSupport.absolute($0), serverURL: url) }
                ?? BenchTarget(serverURL: url, apiKey: apiKey ?? "")
            if let apiKey { known.apiKey = apiKey }
            target = known
            if databaseURL == nil { note("pgbench ceiling skipped: --url was given without --database-url") }
            if let databaseURL, let pgbenchBinary {
                pgbench = BenchPgbench(binary: pgbenchBinary, connection: databaseURL, workDirectory: workDirectory)
            }
        } else {
            let directory = dataDir.map(CommandSupport.absolute) ?? workDirectory + "/data"
            BenchProgress.write("starting the embedded default in \(directory) …\n")
            let started = try await BenchServer(dataDirectory: directory, inProcessSandbox: inProcessSandbox)
            server = started
            target = try started.target()
            if let pgbenchBinary {
                let admin = try started.clusterConnection(database: "postgres")
                try await Self.createDatabase("switchyard_bench", admin: admin, logger: logger)
                pgbench = BenchPgbench(
                    binary: pgbenchBinary, connection: try started.clusterConnection(database: "switchyard_bench"),
                    workDirectory: workDirectory)
            }
        }
        if pgbenchBinary == nil { note("pgbench ceiling skipped: pgbench not found next to the PostgreSQL binaries") }
        defer { server?.stop() }
        if let prepared = pgbench {
            do {
                try await prepared.prepare(logger: logger)
            } catch {
                note("pgbench ceiling skipped: cannot create its scratch table (\(error))")
                pgbench = nil
            }
        }

        let rest = server.flatMap { ProcessSample.read(pid: $0.pid) }
        if let rest {
            note(
                String(
                    format: """
                        server and plugin workers at rest, before the first payment: %.0f MiB RSS, \
                        %.0f MiB with each page counted once
                        """,
                    Double(rest.rssKiB) / 1024, Double(rest.memoryKiB) / 1024))
        }
        target.idempotencyKeys = !noIdempotencyKey
        let levels = concurrencies ?? [1]
        let http = BenchHTTP(connections: levels.max() ?? 1)
        let run = UUID().uuidString.prefix(8).lowercased()
        var prepared: [BenchFlow] = []
        for name in flows {
            do {
                let ready: BenchFlow
                switch name {
                case "citcon": ready = try await BenchFlows.citcon(target: target, http: http)
                case "worldline": ready = try await BenchFlows.worldline(target: target, http: http)
                default: ready = try await BenchFlows.antom(target: target, http: http, run: run)
                }
                if let skipped = ready.providerSkipped { note(skipped) }
                prepared.append(ready)
            } catch {
                note("flow \(name) skipped: \(error)")
            }
        }
        let report = await sweep(
            flows: prepared, levels: levels, run: String(run), http: http, pgbench: pgbench, serverPid: server?.pid,
            sandboxPid: server?.sandboxPid, note: note)
        await http.shutdown()
        await pgbench?.cleanUp(logger: logger)
        let full = BenchReport(
            command: "switchyard " + CommandLine.arguments.dropFirst().joined(separator: " "),
            mode: url == nil ? "embedded" : "url", payments: payments,
            startedAt: ISO8601DateFormatter().string(from: Date()), steps: report, notes: notes,
            restRSSMiB: rest.map { Double($0.rssKiB) / 1024 }, restMemoryMiB: rest.map { Double($0.memoryKiB) / 1024 })
        print(BenchTable(steps: report).render(), terminator: "")
        if let json { try full.json().write(to: URL(fileURLWithPath: CommandSupport.absolute(json))) }
        if let plot {
            try BenchPlot(steps: report).render().write(
                toFile: CommandSupport.absolute(plot), atomically: true, encoding: .utf8)
        }
        if report.isEmpty { throw ExitCode.failure }
    }

    /// Measures every flow at every concurrency, then the references.
    private func sweep(
        flows: [BenchFlow], levels: [Int], run: String, http: BenchHTTP, pgbench: BenchPgbench?, serverPid: Int32?,
        sandboxPid: Int32?, note: (String) -> Void
    ) async -> [BenchStep] {
        for flow in flows where warmup > 0 {
            _ = await BenchLoad.run(
                label: "\(flow.name) warm-up", total: warmup, concurrency: min(4, levels.max() ?? 1)
            ) {
                await flow.switchyard("bench-\(run)-\(flow.name)-warmup-\($0)")
            }
        }
        var steps: [BenchStep] = []
        for level in levels {
            var ceiling: LoadMeasure?
            if let pgbench {
                BenchProgress.write("pgbench payment script, c=\(level) …\n")
                do {
                    ceiling = try pgbench.run(total: payments, concurrency: level)
                } catch {
                    note("pgbench ceiling at c=\(level) failed: \(error)")
                }
            }
            for flow in flows {
                let before = serverPid.flatMap(ProcessSample.read(pid:))
                let sandboxBefore = sandboxPid.flatMap(ProcessSample.read(pid:))
                let measured = await BenchLoad.run(
                    label: "\(flow.name) c=\(level)", total: payments, concurrency: level
                ) { await flow.switchyard("bench-\(run)-\(flow.name)-c\(level)-\($0)") }
                let after = serverPid.flatMap(ProcessSample.read(pid:))
                let sandboxAfter = sandboxPid.flatMap(ProcessSample.read(pid:))
                var alone: LoadMeasure?
                if let provider = flow.provider {
                    alone = await BenchLoad.run(
                        label: "\(flow.name) provider alone c=\(level)", total: payments, concurrency: level
                    ) { await provider("bench-\(run)-\(flow.name)-direct-c\(level)-\($0)") }
                }
                var usage: ServerUsage?
                if let before, let after {
                    let sandbox = sandboxBefore.flatMap { from in sandboxAfter.map { (from, $0) } }
                    usage = ProcessSample.usage(from: before, to: after, payments: payments, sandbox: sandbox)
                }
                steps.append(
                    BenchStep(
                        flow: flow.name, concurrency: level, switchyard: measured, provider: alone, pgbench: ceiling,
                        server: usage))
            }
        }
        return steps
    }

    /// Creates `name` in the cluster unless it exists.
    static func createDatabase(_ name: String, admin: String, logger: Logger) async throws {
        try await PGPool.scoped(connectionString: admin, logger: logger) { pool in
            try await pool.withConnection { c in
                if try c.query("SELECT 1 AS present FROM pg_database WHERE datname = $1", [.text(name)]).first == nil {
                    try c.execute("CREATE DATABASE \(name)")
                }
            }
        }
    }
}
