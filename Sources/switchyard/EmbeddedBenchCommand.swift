import ArgumentParser
import Foundation
import SwitchyardBench
import SwitchyardCommands

/// `switchyard bench`: the shared bench, which here can also start the embedded default (in a child
/// process) and knows its demo tenant, and runs the flows that need the sandbox (the Antom agreement, the
/// Worldline Direct card encrypted with the sandbox's helper) and the routing experiment.
struct EmbeddedBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure payments/s, latency and server cost against the database and provider references.",
        subcommands: [BenchRoutingCommand.self])

    /// The shared flows, then the two that need the sandbox: the Antom agreement is set up through it, and
    /// the Worldline Direct card is encrypted with its helper.
    static let offered =
        BenchFlows.shared + [
            BenchFlowMaker("antom") { target, http, run in
                try await BenchFlows.antom(target: target, http: http, run: run)
            },
            BenchFlowMaker("worldline") { target, http, _ in try await BenchFlows.worldline(target: target, http: http)
            },
        ]

    @OptionGroup var options: BenchOptions

    @Option(help: "With --url: the embedded server's data directory (its demo.json) for the sandbox references.")
    var demoDir: String?

    @Flag(
        help: """
            Run the sandboxes inside the embedded server, as `switchyard serve` alone does (by default they run \
            in a process of their own, so the server's CPU excludes them).
            """)
    var inProcessSandbox = false

    @Flag(
        help: """
            Run every plugin inside the embedded server (isolation "in_process") instead of in a worker process \
            of its own, to measure what the crossings to the workers cost.
            """)
    var pluginsInProcess = false

    @Option(help: "Data directory of the embedded server (default: a new temporary directory, removed after).")
    var dataDir: String?

    func validate() throws {
        try options.validate(offered: Self.offered)
        if options.url != nil && options.apiKey == nil && demoDir == nil {
            throw ValidationError("--url needs --api-key (or --demo-dir with its demo.json)")
        }
        if options.url != nil && pluginsInProcess {
            throw ValidationError("--plugins-in-process applies to the embedded default only, not to --url")
        }
    }

    func run() async throws {
        if let url = options.url {
            var target =
                try demoDir.map { try BenchServer.target(demoDirectory: CommandSupport.absolute($0), serverURL: url) }
                ?? BenchTarget(serverURL: url, apiKey: options.apiKey ?? "")
            if let apiKey = options.apiKey { target.apiKey = apiKey }
            try await options.run(
                subject: .running(url: url, target: target, databaseURL: options.databaseURL), offered: Self.offered)
            return
        }
        let directory =
            dataDir.map(CommandSupport.absolute)
            ?? NSTemporaryDirectory() + "switchyard-bench-" + UUID().uuidString.prefix(8).lowercased() + "/data"
        BenchProgress.write("starting the embedded default in \(directory) …\n")
        let server = try await BenchServer(
            dataDirectory: directory, inProcessSandbox: inProcessSandbox, pluginsInProcess: pluginsInProcess)
        defer {
            server.stop()
            if dataDir == nil {
                try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent)
            }
        }
        let (admin, scratch) = (
            try server.clusterConnection(database: "postgres"),
            try server.clusterConnection(database: "switchyard_bench")
        )
        let subject = BenchSubject(
            target: try server.target(),
            pgbenchConnection: { logger in
                try await BenchOptions.createDatabase("switchyard_bench", admin: admin, logger: logger)
                return scratch
            },
            serverPid: server.pid, sandboxPid: server.sandboxPid)
        try await options.run(subject: subject, offered: Self.offered)
    }
}
