import Foundation
import Logging
import SwitchyardCluster
import SwitchyardCommands
import SwitchyardStore

/// The database ceiling: pgbench running a payment-shaped script (INSERT a row, then UPDATE it, each its
/// own commit, `synchronous_commit` on) against the same cluster, in a scratch table of its own.
package struct BenchPgbench {
    /// The pgbench executable.
    package var binary: String
    /// libpq connection string of the database holding the scratch table.
    package var connection: String
    package var table = "switchyard_bench_payment"
    /// Where the script and the per-transaction logs go.
    package var workDirectory: String

    /// The script of one payment-shaped transaction pair.
    package static func script(table: String) -> String {
        """
        \\set amount random(100, 100000)
        INSERT INTO \(table) (tenant_id, amount, currency, status, reference) VALUES (gen_random_uuid(), :amount, 'USD', 'processing', 'bench-' || :client_id || '-' || random()) RETURNING id \\gset
        UPDATE \(table) SET status = 'succeeded', updated_at = now() WHERE id = :id;

        """
    }

    /// pgbench next to the PostgreSQL server binaries, or on PATH.
    package static func find() -> String? {
        var candidates: [String] = []
        if let bin = PostgresCluster.findBinDirectory() { candidates.append(bin + "/pgbench") }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(directory + "/pgbench")
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Creates (again) the scratch table.
    package func prepare(logger: Logger) async throws {
        try await PGPool.scoped(connectionString: connection, logger: logger) { pool in
            try await pool.withConnection { c in
                try await c.execute("DROP TABLE IF EXISTS \(table)")
                try await c.execute(
                    """
                    CREATE TABLE \(table) (id bigserial PRIMARY KEY, tenant_id uuid NOT NULL, amount bigint NOT NULL,
                    currency text NOT NULL, status text NOT NULL, reference text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz)
                    """)
            }
        }
        try Self.script(table: table).write(toFile: workDirectory + "/payment.sql", atomically: true, encoding: .utf8)
    }

    /// Drops the scratch table.
    package func cleanUp(logger: Logger) async {
        _ = try? await PGPool.scoped(connectionString: connection, logger: logger) { pool in
            try await pool.withConnection { c in try await c.execute("DROP TABLE IF EXISTS \(table)") }
        }
    }

    /// Runs `total` script executions at `concurrency` clients; latencies come from pgbench's
    /// per-transaction log.
    package func run(total: Int, concurrency: Int) throws -> LoadMeasure {
        let logDirectory = workDirectory + "/pgbench-log-\(concurrency)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: logDirectory) }
        let clients = max(1, min(concurrency, total))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "--no-vacuum", "--protocol=prepared", "--client=\(clients)", "--jobs=\(min(clients, 2))",
            "--transactions=\(max(1, total / clients))", "--file=\(workDirectory)/payment.sql", "--log",
            "--log-prefix=\(logDirectory)/tx", connection,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["PGOPTIONS"] = "-c synchronous_commit=on"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let tps = Self.tps(in: text) else {
            let last = text.split(separator: "\n").last.map(String.init) ?? ""
            throw BenchFailure("pgbench failed (status \(process.terminationStatus)): \(last)")
        }
        var latencies: [Double] = []
        for file in (try? FileManager.default.contentsOfDirectory(atPath: logDirectory)) ?? [] {
            let log = (try? String(contentsOfFile: logDirectory + "/" + file, encoding: .utf8)) ?? ""
            latencies += Self.latencies(inLog: log)
        }
        return LoadMeasure(
            count: latencies.count, seconds: tps > 0 ? Double(latencies.count) / tps : 0, throughput: tps,
            latency: LatencySummary(seconds: latencies), errors: [:])
    }

    /// The `tps = …` figure of pgbench's summary.
    package static func tps(in output: String) -> Double? {
        for line in output.split(separator: "\n") where line.hasPrefix("tps = ") {
            return Double(line.dropFirst("tps = ".count).split(separator: " ").first ?? "")
        }
        return nil
    }

    /// Latencies (seconds) of a per-transaction log: `client transaction time_us script epoch epoch_us`.
    package static func latencies(inLog log: String) -> [Double] {
        log.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let micros = Double(fields[2]) else { return nil }
            return micros / 1_000_000
        }
    }
}
