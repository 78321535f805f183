import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PluginHost
import ProviderSandbox
import ServiceLifecycle
import SwitchyardApp
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardHTTP
import SwitchyardObservability
import SwitchyardStore

/// `switchyard serve`: the API server. Without a database URL it is the embedded default: a private
/// PostgreSQL cluster, the provider sandboxes, the plugins built beside the executable and a demo tenant.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the Switchyard API server.")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("port"), help: "Port to listen on (or SWITCHYARD_PORT; default: 8080).")
    var portOption: Int?

    @Option(name: .customLong("host"), help: "Address to listen on (or SWITCHYARD_HOST; default: 127.0.0.1).")
    var hostOption: String?

    @Option(
        name: .customLong("plugins-dir"),
        help: "Directory of plugin .so files (or SWITCHYARD_PLUGINS_DIR; default: <data-dir>/plugins).")
    var pluginsDirOption: String?

    @Option(
        name: .customLong("public-url"),
        help: """
            Base URL providers send notifications to (or SWITCHYARD_PUBLIC_URL). Required with --database-url, \
            and not a loopback address; the embedded default uses http://<host>:<port>.
            """)
    var publicURLOption: String?

    @Flag(
        name: .customLong("allow-loopback-public-url"),
        help: """
            With --database-url, accept a missing or loopback public URL (tests; or \
            SWITCHYARD_ALLOW_LOOPBACK_PUBLIC_URL=1).
            """)
    var allowLoopbackPublicURLFlag = false

    @Option(help: "Port of the embedded sandboxes (default: any free port).")
    var sandboxPort: Int?

    @Option(
        help: """
            With the embedded default: use the sandboxes already running at this URL (`switchyard sandbox \
            --demo-data-dir` with the same data directory) instead of running them in this process.
            """)
    var sandboxURL: String?

    @Flag(help: "Do not apply pending migrations at start (they are then an error); see `switchyard migrate`.")
    var noMigrate = false

    @Flag(
        name: .customLong("allow-development-plugins"),
        help: """
            With --database-url, accept a development-mode plugin policy (plugins load with any digest; or \
            SWITCHYARD_ALLOW_DEVELOPMENT_PLUGINS=1).
            """)
    var allowDevelopmentPluginsFlag = false
    @Option(
        name: .customLong("log-format"),
        help: """
            Log lines as json (one object per line) or text (or SWITCHYARD_LOG_FORMAT; default: json unless \
            stdout is a terminal).
            """)
    var logFormatOption: LogFormat?

    @Option(help: "OTLP/HTTP endpoint traces are exported to (default: OTEL_EXPORTER_OTLP_ENDPOINT; unset: off).")
    var otlpEndpoint: String?

    @Option(
        name: .customLong("metrics-port"),
        help: "Also serve GET /metrics, without authentication, on this port (or SWITCHYARD_METRICS_PORT).")
    var metricsPortOption: Int?

    @Option(
        name: .customLong("replica-id"),
        help: """
            Stable name of this server among the replicas on one database (or SWITCHYARD_REPLICA_ID; default: \
            <hostname>:<port>); a restart under it releases the Idempotency-Keys its previous run held.
            """)
    var replicaIdOption: String?

    func validate() throws {
        try validateEnvironment()
        guard let sandboxURL else { return }
        guard database.databaseURL == nil else {
            throw ValidationError("--sandbox-url belongs to the embedded default: it cannot go with --database-url")
        }
        guard let url = URLComponents(string: sandboxURL), ["http", "https"].contains(url.scheme ?? ""),
            url.host?.isEmpty == false
        else {
            throw ValidationError("--sandbox-url must be an http:// or https:// URL, e.g. http://127.0.0.1:8090")
        }
    }

    func run() async throws {
        _ = try OpenAPIDocument.load()  // the resource bundle must be installed beside the binary
        let (host, port, metricsPort) = (self.host, try self.port, try self.metricsPort)
        ServeObservability.bootstrapLogging(try logFormat ?? .automatic)
        SwitchyardMetrics.bootstrap()
        let logger = try CommandSupport.logger()  // after the bootstrap, or it would log with the default handler
        let tracing = try ServeObservability.bootstrapTracing(
            endpoint: ServeObservability.otlpEndpoint(option: otlpEndpoint), logger: logger)
        if !ProcessPrivacy.keepMemoryPrivate() {
            logger.warning("process memory could not be made private to other processes of this user")
        }
        let dataDirectory = CommandSupport.absolute(database.dataDir)
        let embedded = database.databaseURL == nil
        let pluginsDirectory = CommandSupport.absolute(pluginsDir ?? dataDirectory + "/plugins")
        let publicURL = try self.publicURL(host: host, port: port, external: !embedded)
        if embedded { try StateFile.makePrivateDirectory(dataDirectory) }
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        let policyPath =
            embedded && database.configuredPolicy == nil
            ? try DevelopmentPolicy.write(dataDirectory: dataDirectory, logger: logger) : database.policy
        let (pluginPolicy, platform) = try CommandSupport.loadPolicy(policyPath)
        try Self.checkPluginPolicy(
            pluginPolicy, external: !embedded, allowDevelopment: try allowDevelopmentPlugins, policyPath: policyPath,
            logger: logger)
        var embeddedDB: EmbeddedDatabase?
        let databaseURL: String
        let secrets: SecretBox
        let operatorToken: String
        if embedded {
            secrets = try Self.embeddedSecretBox(database, dataDirectory: dataDirectory, logger: logger)
            if let token = try Self.configuredOperatorToken() {
                operatorToken = token
            } else {
                operatorToken = try StateFile.secret(at: dataDirectory + "/operator-token") {
                    "op_" + SecureRandom.token(bytes: 24)
                }
            }
            let started = try EmbeddedDatabase.start(dataDirectory: dataDirectory, logger: logger)
            embeddedDB = started
            databaseURL = started.appURL
            try PluginInstaller.installBuiltPlugins(
                from: CommandSupport.executableDirectory(), into: pluginsDirectory, logger: logger)
        } else {
            databaseURL = self.database.databaseURL!
            guard let box = try CommandSupport.secretBox(database) else {
                throw ValidationError("a key-encryption key is required: set SWITCHYARD_KEK or pass --kek-file")
            }
            secrets = box
            guard let token = try Self.configuredOperatorToken() else {
                throw ValidationError(
                    "SWITCHYARD_OPERATOR_TOKEN (at least \(OperatorToken.minimumLength) random characters) is required")
            }
            operatorToken = token
        }
        defer { try? embeddedDB?.stop() }
        // The embedded default migrates as the owner; the server below connects as the application role.
        if let embeddedDB { _ = try await embeddedDB.migrate(logger: logger) }

        var configuration = RuntimeConfiguration(
            databaseURL: databaseURL, secrets: secrets, operatorToken: operatorToken,
            pluginsDirectory: pluginsDirectory, pluginPolicy: pluginPolicy, platform: platform,
            publicBaseURL: publicURL, logger: logger, policyPath: CommandSupport.absolute(policyPath))
        configuration.migrateOnStart = !noMigrate
        configuration.replicaId = try replicaId(port: port)
        let runtime = try await SwitchyardRuntime(configuration)
        try await Self.requireKeyringOpensStoredSecrets(runtime)

        var services: [any Service] = tracing.map { [$0] } ?? []
        if let metricsPort {
            services.append(
                ServeObservability.metricsApplication(
                    runtime.dependencies, host: host, port: metricsPort, logger: logger))
        }
        if embedded {
            let merchants = try DemoSandboxMerchants(dataDirectory: dataDirectory)
            let sandboxURL: String
            if let external = self.sandboxURL {
                sandboxURL = external
            } else {
                let sandboxPort = self.sandboxPort ?? PostgresCluster.freePort()
                let sandbox = SandboxServer(
                    configuration: merchants.sandboxConfiguration, logger: Logger(label: "switchyard.sandbox"))
                services.append(
                    TaskService(name: "sandbox") {
                        try await sandbox.run(host: "127.0.0.1", port: sandboxPort) { _ in }
                    })
                sandboxURL = "http://127.0.0.1:\(sandboxPort)"
            }
            let state = try await DemoSeed.seed(
                store: runtime.store, dataDirectory: dataDirectory, serverURL: publicURL,
                sandboxURL: sandboxURL, operatorToken: operatorToken, merchants: merchants,
                manifests: { await runtime.gateway.manifest(pluginId: $0) }, logger: logger)
            logger.info(
                "embedded default ready",
                metadata: ["demo.file": "\(dataDirectory)/demo.json", "sandbox.url": "\(state.sandboxURL)"])
        }
        services.append(TaskService(name: "plugin-watcher") { await runtime.watchPlugins() })
        services.append(
            JanitorService(janitor: runtime.janitor) { [service = runtime.service] in
                service.policy.platform.janitor.pollMs
            })
        services.append(WebhookService(runtime: runtime))
        services.append(TaskService(name: "idempotency-keys") { await runtime.keepIdempotencyKeys() })
        services.append(
            SwitchyardServer.application(runtime.dependencies, host: host, port: port) { port in
                logger.info("switchyard listening", metadata: ["http.port": "\(port)", "http.host": "\(host)"])
            })
        // SIGTERM or SIGINT drains: the listener closes first and requests in flight finish (bounded by
        // their provider deadline), then the workers stop, then the plugins and the pool are released.
        var groupConfiguration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = Self.drainLimit(platform)
        let group = ServiceGroup(configuration: groupConfiguration)
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

extension ServeCommand {
    /// Refuses to start when the keyring does not open a secret already stored (a wrong SWITCHYARD_KEK or
    /// `--kek-file`, or a previous key missing), rather than failing at the first payment that needs it.
    static func requireKeyringOpensStoredSecrets(_ runtime: SwitchyardRuntime) async throws {
        do {
            _ = try await runtime.store.openStoredSecret()
        } catch let error as StoreError {
            await runtime.shutdown()
            throw ValidationError(
                "the key-encryption key does not open the secrets stored in this database (\(error)); check "
                    + "SWITCHYARD_KEK or --kek-file (and, during a key rotation, SWITCHYARD_KEK_PREVIOUS or "
                    + "--kek-previous-file)")
        }
    }

    /// SWITCHYARD_OPERATOR_TOKEN when set; refused when it is weak (the message never shows it).
    static func configuredOperatorToken() throws -> String? {
        guard let token = ProcessInfo.processInfo.environment["SWITCHYARD_OPERATOR_TOKEN"], !token.isEmpty else {
            return nil
        }
        if let problem = OperatorToken.problem(token) {
            throw ValidationError("SWITCHYARD_OPERATOR_TOKEN refused: \(problem)")
        }
        return token
    }

    /// The embedded default's key-encryption key: SWITCHYARD_KEK, else `--kek-file` (generated there when
    /// missing, nothing written to the data directory), else `<data-dir>/kek` with a warning.
    static func embeddedSecretBox(_ options: DatabaseOptions, dataDirectory: String, logger: Logger) throws
        -> SecretBox
    {
        if let configured = try CommandSupport.secretBox(options, generate: true) { return configured }
        let path = dataDirectory + "/kek"
        logger.warning(
            "the key-encryption key is kept in the data directory, beside the data it protects; pass --kek-file to keep it elsewhere",
            metadata: ["kek.file": "\(path)"])
        return try CommandSupport.secretBox(
            current: try StateFile.secret(at: path, make: CommandSupport.newKEK), options)
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
