import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PluginHost
import ProviderSandbox
import ServiceLifecycle
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardHTTP
import SwitchyardStore

/// `switchyard serve`: the API server. Without a database URL it is the embedded default: a private
/// PostgreSQL cluster, the provider sandboxes, the plugins built beside the executable and a demo tenant.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the Switchyard API server.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Port to listen on.")
    var port: Int = 8080

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Directory of plugin .so files (default: <data-dir>/plugins).")
    var pluginsDir: String?

    @Option(help: "Base URL providers use to reach this server (default: http://<host>:<port>).")
    var publicURL: String?

    @Option(help: "Port of the embedded sandboxes (default: any free port).")
    var sandboxPort: Int?

    func run() async throws {
        let logger = CommandSupport.logger()
        let dataDirectory = CommandSupport.absolute(database.dataDir)
        let embedded = database.databaseURL == nil
        let pluginsDirectory = CommandSupport.absolute(pluginsDir ?? dataDirectory + "/plugins")
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        let (pluginPolicy, platform) = try CommandSupport.loadPolicy(
            database.policy, fallback: embedded ? (PluginPolicy(mode: .development), PlatformPolicy()) : nil)
        let publicURL = self.publicURL ?? "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)"

        var embeddedDB: EmbeddedDatabase?
        let databaseURL: String
        let secrets: SecretBox
        let operatorToken: String
        if embedded {
            try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
            embeddedDB = try EmbeddedDatabase.start(dataDirectory: dataDirectory, logger: logger)
            databaseURL = embeddedDB!.connectionString
            if let configured = try CommandSupport.secretBox(kekFile: self.database.kekFile) {
                secrets = configured
            } else {
                let generated = try StateFile.secret(at: dataDirectory + "/kek") {
                    Data(SecureRandom.bytes(32)).base64EncodedString()
                }
                secrets = try SecretBox(encoded: generated)
            }
            if let token = ProcessInfo.processInfo.environment["SWITCHYARD_OPERATOR_TOKEN"], !token.isEmpty {
                operatorToken = token
            } else {
                operatorToken = try StateFile.secret(at: dataDirectory + "/operator-token") {
                    "op_" + SecureRandom.token(bytes: 24)
                }
            }
            try PluginInstaller.installBuiltPlugins(
                from: CommandSupport.executableDirectory(), into: pluginsDirectory, logger: logger)
        } else {
            databaseURL = self.database.databaseURL!
            guard let box = try CommandSupport.secretBox(kekFile: self.database.kekFile) else {
                throw ValidationError("a key-encryption key is required: set SWITCHYARD_KEK or pass --kek-file")
            }
            secrets = box
            guard let token = ProcessInfo.processInfo.environment["SWITCHYARD_OPERATOR_TOKEN"], token.count >= 16 else {
                throw ValidationError("SWITCHYARD_OPERATOR_TOKEN (at least 16 characters) is required")
            }
            operatorToken = token
        }
        defer { try? embeddedDB?.stop() }

        let runtime = try await SwitchyardRuntime(
            RuntimeConfiguration(
                databaseURL: databaseURL, secrets: secrets, operatorToken: operatorToken,
                pluginsDirectory: pluginsDirectory, pluginPolicy: pluginPolicy, platform: platform,
                publicBaseURL: publicURL, logger: logger,
                policyPath: FileManager.default.fileExists(atPath: database.policy)
                    ? CommandSupport.absolute(database.policy) : nil))

        var services: [any Service] = []
        if embedded {
            let merchants = try DemoSandboxMerchants(dataDirectory: dataDirectory)
            let sandboxPort = self.sandboxPort ?? PostgresCluster.freePort()
            let sandbox = SandboxServer(
                configuration: merchants.sandboxConfiguration, logger: Logger(label: "switchyard.sandbox"))
            services.append(
                TaskService(name: "sandbox") {
                    try await sandbox.run(host: "127.0.0.1", port: sandboxPort) { _ in }
                })
            let state = try await DemoSeed.seed(
                store: runtime.store, dataDirectory: dataDirectory, serverURL: publicURL,
                sandboxURL: "http://127.0.0.1:\(sandboxPort)", operatorToken: operatorToken, merchants: merchants,
                logger: logger)
            logger.info(
                "embedded default ready",
                metadata: ["demo.file": "\(dataDirectory)/demo.json", "sandbox.url": "\(state.sandboxURL)"])
        }
        services.append(TaskService(name: "plugin-watcher") { await runtime.watchPlugins() })
        services.append(TaskService(name: "janitor") { await runtime.runJanitor() })
        services.append(TaskService(name: "webhooks") { await runtime.runWebhooks() })
        services.append(
            SwitchyardServer.application(runtime.dependencies, host: host, port: port) { port in
                logger.info("switchyard listening", metadata: ["http.port": "\(port)", "http.host": "\(host)"])
            })
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            logger.error(
                "server stopped with an error", metadata: ["error.type": "\(String(describing: type(of: error)))"])
        }
        await runtime.shutdown()
        logger.info("stopped")
    }
}

/// Runs a closure as a service that ends on graceful shutdown.
struct TaskService: Service {
    let name: String
    let body: @Sendable () async throws -> Void

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await body()
        }
    }
}

/// Copies the plugins built beside the executable into the plugins directory (atomically, only when changed).
enum PluginInstaller {
    static func installBuiltPlugins(from directory: String, into pluginsDirectory: String, logger: Logger) throws {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for file in files where file.hasPrefix("lib") && file.hasSuffix("Plugin.so") {
            let source = directory + "/" + file
            let target = pluginsDirectory + "/" + file
            guard let data = FileManager.default.contents(atPath: source) else { continue }
            if let existing = FileManager.default.contents(atPath: target), existing == data { continue }
            let temporary = pluginsDirectory + "/." + file + ".tmp"
            guard FileManager.default.createFile(atPath: temporary, contents: data) else {
                throw ValidationError("cannot write \(temporary)")
            }
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.moveItem(atPath: temporary, toPath: target)
            logger.info("plugin installed", metadata: ["plugin.file": "\(file)"])
        }
    }
}
