import ArgumentParser
import Foundation
import Logging
import SwitchyardCommands

/// The options of `bench` both executables take, and the measurement itself: payments driven through
/// Switchyard at a sweep of concurrencies, against two references taken in the same run: the database
/// ceiling (pgbench, payment-shaped) and the provider alone (the same sandbox calls without Switchyard).
package struct BenchOptions: ParsableArguments {
    package init() {}

    @Option(help: "A running server to measure (default: start the embedded default in a child process).")
    package var url: String?

    @Option(help: "The API key for --url (payments scope).")
    package var apiKey: String?

    @Option(
        name: .customLong("database-url"),
        help: "With --url: the server's database, for the pgbench ceiling (skipped without it).")
    package var databaseURL: String?

    @Option(help: "Concurrencies to sweep, comma-separated.")
    var concurrency: String = "1,8,32"

    @Option(help: "Payments per flow and concurrency.")
    var payments: Int = 2000

    @Option(help: "Payments per flow sent before measuring (not counted).")
    var warmup: Int = 100

    @Option(
        help: """
            Flows, comma-separated: citcon (session flow), antom (stored-credential charge), worldline (card \
            encrypted by the app, then /complete); antom and worldline need the sandbox, so only the \
            development executable `switchyard` offers them. Default: every flow offered.
            """)
    var flow: String?

    @Flag(help: "Send payments without an Idempotency-Key (by default each carries one).")
    var noIdempotencyKey = false

    @Option(help: "Write every figure to this JSON file.")
    var json: String?

    @Option(help: "Write an SVG of the latency percentiles to this file.")
    var plot: String?

    package var concurrencies: [Int]? {
        let parts = concurrency.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        return parts.contains(nil) ? nil : parts.compactMap { $0 }
    }

    /// The flows asked for, among `offered` (all of them by default).
    package func flows(offered: [BenchFlowMaker]) -> [String] {
        guard let flow else { return offered.map(\.name) }
        return flow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// Refuses counts, concurrencies and flows that cannot run.
    package func validate(offered: [BenchFlowMaker]) throws {
        guard payments > 0 else { throw ValidationError("--payments must be positive") }
        guard warmup >= 0 else { throw ValidationError("--warmup must not be negative") }
        guard let levels = concurrencies, !levels.isEmpty, levels.allSatisfy({ (1...1024).contains($0) }) else {
            throw ValidationError("--concurrency must list numbers from 1 to 1024, e.g. 1,8,32")
        }
        let names = offered.map(\.name)
        let flows = flows(offered: offered)
        guard !flows.isEmpty, flows.allSatisfy(names.contains) else {
            throw ValidationError("--flow must list flows among \(names.joined(separator: ","))")
        }
        if let url, Self.serverURL(url) == nil {
            throw ValidationError(
                "--url must be the http(s) address of a running server, e.g. http://127.0.0.1:8080, not \(url)")
        }
    }

    /// `text` as a server's base address (http or https, a host, no query or fragment), nil when it is not one.
    package static func serverURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else { return nil }
        return url
    }

    /// Asks the server at `url` for `/health` once: a bench against an address where nothing answers stops
    /// at once with what it tried, rather than waiting through its warm-up.
    package static func checkReachable(_ url: String, http: BenchHTTP) async throws {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        let (status, _) = await http.send(.GET, base + "/health")
        guard status == 200 else {
            let answer = status == 0 ? "no answer" : "HTTP \(status)"
            BenchProgress.write("bench: the server at \(base) is not serving (GET /health: \(answer))\n")
            throw ExitCode.failure
        }
    }

    /// A logger for the bench's own work: warnings only, so the progress lines stay readable.
    package static func logger() throws -> Logger {
        var logger = try CommandSupport.logger("switchyard.bench")
        logger.logLevel = .warning
        return logger
    }

    /// Measures `subject` with the flows asked for among `offered`; fails when nothing could be measured.
    package func run(subject: BenchSubject, offered: [BenchFlowMaker]) async throws {
        let logger = try Self.logger()
        var notes: [String] = []
        func note(_ text: String) {
            notes.append(text)
            BenchProgress.write(text + "\n")
        }
        subject.notes.forEach(note)
        let workDirectory = NSTemporaryDirectory() + "switchyard-bench-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: workDirectory) }

        var pgbench: BenchPgbench?
        let pgbenchBinary = BenchPgbench.find()
        if let pgbenchBinary, let connection = try await subject.pgbenchConnection?(logger) {
            pgbench = BenchPgbench(binary: pgbenchBinary, connection: connection, workDirectory: workDirectory)
        }
        if pgbenchBinary == nil { note("pgbench ceiling skipped: pgbench not found next to the PostgreSQL binaries") }
        if let prepared = pgbench {
            do {
                try await prepared.prepare(logger: logger)
            } catch {
                note("pgbench ceiling skipped: cannot create its scratch table (\(error))")
                pgbench = nil
            }
        }

        let rest = subject.serverPid.flatMap { ProcessSample.read(pid: $0) }
        if let rest {
            note(
                String(
                    format: """
                        server and plugin workers at rest, before the first payment: %.0f MiB RSS, \
                        %.0f MiB with each page counted once
                        """,
                    Double(rest.rssKiB) / 1024, Double(rest.memoryKiB) / 1024))
            if let server = rest.serverThreads, let workers = rest.workerThreads {
                note("threads at rest: \(server) in the server, \(workers) in its plugin workers")
            }
        }
        var target = subject.target
        target.idempotencyKeys = !noIdempotencyKey
        let levels = concurrencies ?? [1]
        let http = BenchHTTP(connections: levels.max() ?? 1)
        if let url {
            do {
                try await Self.checkReachable(url, http: http)
            } catch {
                await http.shutdown()
                await pgbench?.cleanUp(logger: logger)
                throw error
            }
        }
        let run = String(UUID().uuidString.prefix(8).lowercased())
        var prepared: [BenchFlow] = []
        for name in flows(offered: offered) {
            guard let maker = offered.first(where: { $0.name == name }) else { continue }
            do {
                let ready = try await maker.make(target, http, run)
                if let skipped = ready.providerSkipped { note(skipped) }
                prepared.append(ready)
            } catch {
                note("flow \(name) skipped: \(error)")
            }
        }
        let report = await sweep(
            flows: prepared, levels: levels, run: run, http: http, pgbench: pgbench, serverPid: subject.serverPid,
            sandboxPid: subject.sandboxPid, note: note)
        await http.shutdown()
        await pgbench?.cleanUp(logger: logger)
        let full = BenchReport(
            command: "switchyard " + CommandLine.arguments.dropFirst().joined(separator: " "),
            mode: url == nil ? "embedded" : "url", payments: payments,
            startedAt: ISO8601DateFormatter().string(from: Date()), steps: report, notes: notes,
            restRSSMiB: rest.map { Double($0.rssKiB) / 1024 }, restMemoryMiB: rest.map { Double($0.memoryKiB) / 1024 },
            restServerThreads: rest?.serverThreads, restWorkerThreads: rest?.workerThreads)
        print(BenchTable(steps: report).render(), terminator: "")
        if let json { try full.json().write(to: URL(fileURLWithPath: CommandSupport.absolute(json))) }
        if let plot {
            try BenchPlot(steps: report).render().write(
                toFile: CommandSupport.absolute(plot), atomically: true, encoding: .utf8)
        }
        if report.isEmpty { throw ExitCode.failure }
    }
}

/// What a bench run measures: where the API is, how to reach the database ceiling, and which processes
/// to sample (those of a server the bench started itself).
package struct BenchSubject: Sendable {
    package var target: BenchTarget
    /// The connection string pgbench uses (a database of its own may be created first); nil skips it.
    package var pgbenchConnection: (@Sendable (Logger) async throws -> String)?
    package var serverPid: Int32?
    package var sandboxPid: Int32?
    /// What was already decided (e.g. a reference skipped), reported with the run's other notes.
    package var notes: [String] = []

    package init(
        target: BenchTarget, pgbenchConnection: (@Sendable (Logger) async throws -> String)?,
        serverPid: Int32? = nil, sandboxPid: Int32? = nil, notes: [String] = []
    ) {
        self.target = target
        self.pgbenchConnection = pgbenchConnection
        self.serverPid = serverPid
        self.sandboxPid = sandboxPid
        self.notes = notes
    }

    /// A running server at `url` (`--url`): pgbench through `databaseURL` when given.
    package static func running(url: String, target: BenchTarget, databaseURL: String?) -> BenchSubject {
        guard let databaseURL else {
            return BenchSubject(
                target: target, pgbenchConnection: nil,
                notes: ["pgbench ceiling skipped: --url was given without --database-url"])
        }
        return BenchSubject(target: target, pgbenchConnection: { @Sendable _ in databaseURL })
    }
}

/// One flow the bench can run, by name, and how to prepare it against a target.
package struct BenchFlowMaker: Sendable {
    package var name: String
    package var make: @Sendable (_ target: BenchTarget, _ http: BenchHTTP, _ run: String) async throws -> BenchFlow

    package init(
        _ name: String,
        make: @escaping @Sendable (_ target: BenchTarget, _ http: BenchHTTP, _ run: String) async throws -> BenchFlow
    ) {
        self.name = name
        self.make = make
    }
}
