import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PluginHost
import ServiceLifecycle
import SwitchyardApp
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardHTTP
import SwitchyardObservability
import SwitchyardStore

extension ServeOptions {
    /// Runs the server until SIGTERM or SIGINT. Without a database URL, `embedded` provides the database,
    /// the policy and the services beside the server; without both, it refuses to start.
    package func run(embedded: (any EmbeddedDefault)?) async throws {
        let embeddedDefault = database.databaseURL == nil ? embedded : nil
        if database.databaseURL == nil && embeddedDefault == nil { throw ServeOptions.noDatabase }
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
        let isEmbedded = embeddedDefault != nil
        let pluginsDirectory = CommandSupport.absolute(pluginsDir ?? dataDirectory + "/plugins")
        let publicURL = try self.publicURL(host: host, port: port, external: !isEmbedded)
        if isEmbedded { try StateFile.makePrivateDirectory(dataDirectory) }
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        let policyPath =
            database.configuredPolicy == nil
            ? try embeddedDefault?.policyFile(dataDirectory: dataDirectory, logger: logger) ?? database.policy
            : database.policy
        let (pluginPolicy, platform) = try CommandSupport.loadPolicy(policyPath)
        try ServeOptions.checkPluginPolicy(
            pluginPolicy, external: !isEmbedded, allowDevelopment: try allowDevelopmentPlugins, policyPath: policyPath,
            logger: logger)
        var embeddedDB: (any EmbeddedDatabaseHandle)?
        let databaseURL: String
        let secrets: SecretBox
        let operatorToken: String
        if let embeddedDefault {
            secrets = try ServeOptions.embeddedSecretBox(database, dataDirectory: dataDirectory, logger: logger)
            if let token = try ServeOptions.configuredOperatorToken() {
                operatorToken = token
            } else {
                operatorToken = try StateFile.secret(at: dataDirectory + "/operator-token") {
                    "op_" + SecureRandom.token(bytes: 24)
                }
            }
            let started = try await embeddedDefault.startDatabase(dataDirectory: dataDirectory, logger: logger)
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
            guard let token = try ServeOptions.configuredOperatorToken() else {
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
        try await ServeOptions.requireKeyringOpensStoredSecrets(runtime)

        var services: [any Service] = tracing.map { [$0] } ?? []
        if let metricsPort {
            services.append(
                ServeObservability.metricsApplication(
                    runtime.dependencies, host: host, port: metricsPort, logger: logger))
        }
        if let embeddedDefault {
            services += try await embeddedDefault.services(
                runtime: runtime, dataDirectory: dataDirectory, publicURL: publicURL, operatorToken: operatorToken,
                logger: logger)
        }
        services.append(TaskService(name: "plugin-watcher") { await runtime.watchPlugins() })
        // The workers that mostly talk to the database run on its loops (the plugin watcher reads files).
        let onALoop = { [pool = runtime.pool] (service: any Service) in
            LoopBoundService(service) { pool.requestExecutor() }
        }
        services.append(
            onALoop(
                JanitorService(janitor: runtime.janitor) { [service = runtime.service] in
                    service.policy.platform.janitor.pollMs
                }))
        services.append(onALoop(WebhookService(runtime: runtime)))
        services.append(onALoop(TaskService(name: "idempotency-keys") { await runtime.keepIdempotencyKeys() }))
        services.append(onALoop(TaskService(name: "background-work") { await runtime.runBackgroundWork() }))
        services.append(
            SwitchyardServer.application(runtime.dependencies, host: host, port: port) { port in
                // What the start allocated and freed stays in the allocator's arenas otherwise.
                FreeMemory.release()
                logger.info("switchyard listening", metadata: ["http.port": "\(port)", "http.host": "\(host)"])
            })
        // SIGTERM or SIGINT drains: the listener closes first and requests in flight finish (bounded by
        // their provider deadline), then the workers stop, then the plugins and the pool are released.
        var groupConfiguration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = ServeOptions.drainLimit(platform)
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
