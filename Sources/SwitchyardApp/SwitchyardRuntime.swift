import Foundation
import Logging
import PluginHost
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardHTTP
import SwitchyardObservability
import SwitchyardStore

/// How to assemble a running Switchyard.
public struct RuntimeConfiguration: Sendable {
    /// libpq connection string.
    public var databaseURL: String
    public var poolSize: Int
    public var secrets: SecretBox
    public var operatorToken: String
    /// Directory scanned for plugin `.so` files.
    public var pluginsDirectory: String
    public var pluginPolicy: PluginPolicy
    public var platform: PlatformPolicy
    /// The `policy.json` a reload reads again (nil: the policy cannot be reloaded).
    public var policyPath: String?
    /// Base URL under which providers reach this server (notification URLs are built from it).
    public var publicBaseURL: String
    /// How often the plugins directory is checked for new or rebuilt plugins.
    public var pluginWatchInterval: Duration
    public var clock: @Sendable () -> Date
    public var logger: Logger
    /// Whether to apply pending migrations at start (the role must own the tables); when false, pending
    /// migrations are an error.
    public var migrateOnStart = true
    /// The `switchyard` executable that runs plugin scanner and worker processes (the running one when
    /// this process is `switchyard`).
    public var pluginExecutable: PluginExecutable? = PluginExecutable.current()
    /// The stable name of this server among the replicas on the database (`--replica-id`): a restart under the
    /// same name releases the `Idempotency-Key`s its previous incarnation held. Nil: `<host>:<pid>:<random>`.
    public var replicaId: String?

    public init(
        databaseURL: String, poolSize: Int = 8, secrets: SecretBox, operatorToken: String, pluginsDirectory: String,
        pluginPolicy: PluginPolicy, platform: PlatformPolicy = .init(), publicBaseURL: String,
        pluginWatchInterval: Duration = .seconds(2), clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger,
        policyPath: String? = nil
    ) {
        self.policyPath = policyPath
        self.databaseURL = databaseURL
        self.poolSize = poolSize
        self.secrets = secrets
        self.operatorToken = operatorToken
        self.pluginsDirectory = pluginsDirectory
        self.pluginPolicy = pluginPolicy
        self.platform = platform
        self.publicBaseURL = publicBaseURL
        self.pluginWatchInterval = pluginWatchInterval
        self.clock = clock
        self.logger = logger
    }
}

/// A running Switchyard: database pool, plugins, provider gateway and payment service, wired together.
public final class SwitchyardRuntime: Sendable {
    public let configuration: RuntimeConfiguration
    public let pool: PGPool
    public let store: PostgresStore
    public let http: OutboundHTTPService
    public let registry: PluginRegistry
    public let gateway: PluginGateway
    public let service: PaymentService
    public let janitor: PaymentJanitor
    public let webhooks: WebhookDispatcher
    /// This server's incarnation (see ``ServerInstance``), started on the database.
    public let instance: ServerInstance
    /// The key claims of requests that ended during a database outage, released once it answers again.
    public let keyReleases: PendingKeyReleases
    /// Tenants' configuration in memory, in front of the store.
    public let configurationCache: CachedConfiguration
    /// Reports every replica's configuration writes to the caches.
    let configurationListener: ConfigurationListener

    /// Connects, migrates and loads the plugins.
    public init(_ configuration: RuntimeConfiguration) async throws {
        // Before the first metric is made (plugin loads below): metrics made earlier would go nowhere.
        SwitchyardMetrics.bootstrap()
        self.configuration = configuration
        let logger = configuration.logger
        pool = try PGPool(Self.database(configuration), logger: logger)
        store = PostgresStore(pool: pool, secrets: configuration.secrets, clock: configuration.clock, logger: logger)
        let applied = configuration.migrateOnStart ? try await store.migrate() : try await store.requireMigrated()
        if !applied.isEmpty { logger.info("migrations applied", metadata: ["db.versions": "\(applied)"]) }
        let started = try await store.instances.startIncarnation(
            replica: configuration.replicaId ?? Self.workerName() + ":" + String(UUID().uuidString.prefix(8)),
            now: configuration.clock())
        instance = started.instance
        logger.info(
            "server incarnation started",
            metadata: [
                "replica.id": "\(started.instance.replica)", "replica.incarnation": "\(started.instance.incarnation)",
                "idempotency.released": "\(started.released)",
            ])
        keyReleases = PendingKeyReleases(claims: store.idempotencyKeys, logger: logger)
        // Cached entries age by the wall clock: their lifetime is a safety net, not business time.
        store.configureCaching(configuration.platform.caching.settings)
        configurationCache = CachedConfiguration(
            store, changes: store.configurationChanges, settings: configuration.platform.caching.settings,
            clock: { Date() })
        configurationListener = store.configurationListener(Self.database(configuration))
        configurationListener.start()
        http = OutboundHTTPService(
            defaultTimeout: .milliseconds(configuration.platform.limits.providerTimeoutMs), logger: logger,
            clock: configuration.clock)
        registry = PluginRegistry(
            directory: configuration.pluginsDirectory, policy: configuration.pluginPolicy, hostServices: http,
            logger: logger, executable: configuration.pluginExecutable,
            runSettings: Self.pluginRunSettings(configuration.platform))
        _ = await registry.reload()
        let tokens = AccessTokenCache(
            store: store.accessTokens,
            refreshMargin: TimeInterval(configuration.platform.lifetimes.tokenRefreshMarginSeconds),
            // Outlasts another replica's token call, which is bounded by the provider timeout.
            lockWait: .milliseconds(configuration.platform.limits.providerTimeoutMs) + .seconds(5),
            // A dead holder's lock frees itself once its token call and storage waits must have ended.
            lockLease: .milliseconds(configuration.platform.limits.providerTimeoutMs) + .seconds(15),
            clock: configuration.clock, logger: logger)
        gateway = PluginGateway(
            registry: registry, tokens: tokens, publicBaseURL: configuration.publicBaseURL, logger: logger)
        let policy = PolicyCenter(configuration.platform)
        service = PaymentService(
            payments: store.payments, configuration: configurationCache, gateway: gateway,
            credentials: store.credentials, disputes: store.disputes,
            ids: IdentifierGenerator(randomBytes: { SecureRandom.bytes($0) }), clock: configuration.clock,
            logger: logger, policy: policy,
            routingStats: CachedRoutingStats(store.routing, policy: policy, clock: { Date() }))
        janitor = PaymentJanitor(
            service: service, payments: store.payments, clock: configuration.clock, logger: logger,
            notifications: store.notifications,
            settlement: store.settlement, retention: store.retention, keys: store.idempotencyKeys,
            instances: (store.instances, started.instance), outcomes: store.routing,
            rollouts: store.routing)
        webhooks = WebhookDispatcher(
            store: store, policy: service.policy, worker: Self.workerName(), clock: configuration.clock,
            logger: logger)
    }

    /// The pool's configuration: the connection string and size (`database.pool_size` of the policy when
    /// set), with the bounds of
    /// `PlatformPolicy.Server` (acquire wait, statement, lock and idle-in-transaction timeouts) and the
    /// keepalives of `database` (how soon a vanished server is noticed).
    static func database(_ configuration: RuntimeConfiguration) -> PostgresConfiguration {
        let bounds = configuration.platform.server
        let keepalive = configuration.platform.database.keepalive
        return PostgresConfiguration(
            connectionString: configuration.databaseURL,
            poolSize: configuration.platform.database.poolSize(default: configuration.poolSize),
            acquireTimeout: .milliseconds(bounds.databaseAcquireTimeoutMs),
            sessionTimeouts: .init(
                statementMs: bounds.databaseStatementTimeoutMs, lockMs: bounds.databaseLockTimeoutMs,
                idleInTransactionMs: bounds.databaseIdleInTransactionTimeoutMs),
            keepalive: .init(
                idleSeconds: keepalive.idleSeconds, intervalSeconds: keepalive.intervalSeconds,
                count: keepalive.count, tcpUserTimeoutMs: keepalive.tcpUserTimeoutMs))
    }

    /// `<host>:<pid>`, naming this process in the webhook attempts it records.
    static func workerName() -> String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// Reads a `policy.json` strictly (``PolicyDocument``): the plugin section and the platform sections.
    public static func readPolicy(path: String) throws -> (PluginPolicy, PlatformPolicy) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let document = try PolicyDocument(data: data)
            return (document.plugins, document.platform)
        } catch let error as CoreError {
            throw CoreError(error.code, "\((path as NSString).lastPathComponent): \(error.message)")
        }
    }

    /// Reads `policy.json` again and applies it without a restart: which plugins may load (the loaded
    /// set is re-examined) and the platform limits.
    public func reloadPolicy() async throws -> PlatformPolicy {
        guard let path = configuration.policyPath else {
            throw CoreError(.policyNotReloadable, "this server was started without a policy file")
        }
        let (plugins, platform): (PluginPolicy, PlatformPolicy)
        do {
            (plugins, platform) = try Self.readPolicy(path: path)
        } catch let error as CoreError {
            throw error
        } catch {
            throw CoreError(.invalidPolicy, "policy.json could not be read: \(error)")
        }
        await registry.updatePolicy(plugins)
        _ = await registry.reload()
        let previousCaching = service.policy.platform.caching
        service.policy.replace(platform)
        if platform.caching != previousCaching {
            store.configureCaching(platform.caching.settings)
            configurationCache.configure(platform.caching.settings)
        }
        configuration.logger.info("policy reloaded")
        return platform
    }

    /// Delivers webhook events until the calling task is cancelled, or until `stopping` holds and the
    /// deliveries under way have finished.
    public func runWebhooks(stopping: @escaping @Sendable () -> Bool = { false }) async {
        await webhooks.run(stopping: stopping)
    }

    /// Runs the work the payment service starts for later (``BackgroundWork``) until the calling task is
    /// cancelled.
    public func runBackgroundWork() async {
        await service.background.run()
    }

    /// Runs the janitor until the calling task is cancelled.
    public func runJanitor() async {
        await janitor.run()
    }

    /// What the HTTP surface needs.
    public var dependencies: ServerDependencies {
        var dependencies = ServerDependencies(
            repositories: ServerRepositories(
                tenants: store.tenants, accounts: store.accounts, routing: store.routing, payments: store.payments,
                claims: store.idempotencyKeys,
                records: store.payments,
                search: store.operators, events: store.webhooks, endpoints: store.webhooks,
                notifications: store.notifications, review: store.operators, probes: store.operators,
                routingStats: store.routing, configuration: store, routingReplay: store.routing,
                rollouts: store.routing, operators: store.operators),
            service: service, registry: registry, gateway: gateway,
            notificationURL: { [gateway] in gateway.notificationURL(accountId: $0) },
            operatorToken: configuration.operatorToken, bodyLimit: configuration.platform.limits.maxBodyBytes,
            logger: configuration.logger, reloadPolicy: { [self] in try await self.reloadPolicy() },
            keyReleases: keyReleases, instance: instance)
        // A request runs on one of the loops that drive the database connections, so its transactions
        // run where it already is.
        dependencies.requestExecutor = { [pool] in pool.requestExecutor() }
        return dependencies
    }

    /// Until the calling task is cancelled: releases the key claims of requests that ended during a database
    /// outage as soon as it answers again, and records that this incarnation is alive.
    public func keepIdempotencyKeys() async {
        let heartbeat = InstanceHeartbeat(
            instance: instance, registry: store.instances, clock: configuration.clock,
            interval: { [policy = service.policy] in policy.platform.idempotency.heartbeatInterval },
            logger: configuration.logger)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [keyReleases] in await keyReleases.run() }
            group.addTask { await heartbeat.run() }
        }
    }

    /// Watches the plugins directory until the calling task is cancelled.
    public func watchPlugins() async {
        await registry.watch(every: configuration.pluginWatchInterval)
    }

    /// Releases the HTTP client and the database pool.
    public func shutdown() async {
        try? await http.shutdown()
        await webhooks.shutdown()
        await configurationListener.stop()
        await pool.shutdown()
    }
}
