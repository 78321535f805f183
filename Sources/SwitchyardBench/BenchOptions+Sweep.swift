import Foundation
import Logging
import SwitchyardCommands
import SwitchyardStore

extension BenchOptions {
    /// Measures every flow at every concurrency, then the references.
    package func sweep(
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
                    usage = ProcessSample.usage(
                        from: before, to: after, payments: payments, successes: measured.successes, sandbox: sandbox)
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
    package static func createDatabase(_ name: String, admin: String, logger: Logger) async throws {
        try await PGPool.scoped(connectionString: admin, logger: logger) { pool in
            try await pool.withConnection { c in
                if try await c.query("SELECT 1 AS present FROM pg_database WHERE datname = $1", [.text(name)]).first
                    == nil
                {
                    try await c.execute("CREATE DATABASE \(name)")
                }
            }
        }
    }
}
