import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import SwitchyardCore
import SwitchyardObservability

/// Everything the HTTP surface needs.
public struct ServerDependencies: Sendable {
    /// The repositories the routes read and write through.
    public var repositories: ServerRepositories
    public var service: PaymentService
    public var registry: any PluginCatalog
    public var gateway: any ProviderGateway
    /// The notification URL of an account, shown with it.
    public var notificationURL: @Sendable (UUID) -> String
    public var operatorToken: String
    /// Largest request body accepted, in bytes.
    public var bodyLimit: Int
    public var logger: Logger
    /// Reads `policy.json` again and applies it.
    public var reloadPolicy: @Sendable () async throws -> PlatformPolicy
    /// The `Idempotency-Key` claims left to release once the database answers again (run by the server's
    /// worker; see ``PendingKeyReleases/run(sleep:)``).
    public var keyReleases: PendingKeyReleases
    /// This server's incarnation, naming the owners of the keys it claims; nil: random owners.
    public var instance: ServerInstance?
    /// The executor a new connection's requests run on; nil (the default): the cooperative pool.
    public var requestExecutor: @Sendable () -> (any TaskExecutor)? = { nil }

    public init(
        repositories: ServerRepositories, service: PaymentService, registry: any PluginCatalog,
        gateway: any ProviderGateway,
        notificationURL: @escaping @Sendable (UUID) -> String,
        operatorToken: String, bodyLimit: Int, logger: Logger,
        reloadPolicy: @escaping @Sendable () async throws -> PlatformPolicy = {
            throw CoreError(.policyNotReloadable, "no policy file")
        },
        keyReleases: PendingKeyReleases? = nil, instance: ServerInstance? = nil
    ) {
        self.reloadPolicy = reloadPolicy
        self.keyReleases = keyReleases ?? PendingKeyReleases(claims: repositories.claims, logger: logger)
        self.instance = instance
        self.repositories = repositories
        self.service = service
        self.registry = registry
        self.gateway = gateway
        self.notificationURL = notificationURL
        self.operatorToken = operatorToken
        self.bodyLimit = bodyLimit
        self.logger = logger
    }
}

/// Builds Switchyard's router and application.
public enum SwitchyardServer {
    /// The router with every route.
    public static func router(_ deps: ServerDependencies) -> Router<AppContext> {
        SwitchyardMetrics.bootstrap()
        let store = deps.repositories
        PaymentMetrics.tenantLabels = deps.service.policy.platform.metrics.tenantLabels
        let router = Router(context: AppContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: TracingMiddleware())
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: AccessLogMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: TenantLimitMiddleware(tenants: store.tenants, policy: deps.service.policy))
        router.add(middleware: InputMiddleware())
        router.add(middleware: QueryContractMiddleware())
        let auth = Authenticator(
            operatorToken: deps.operatorToken, keys: store.tenants, operators: store.operators,
            singleSignOn: { [policy = deps.service.policy] in policy.platform.operatorSSO })
        // Each group lets through only its callers and puts them in the context.
        let operatorOnly = router.group().add(middleware: OperatorAuthentication(auth: auth))
        let admin = router.group("admin/v1").add(middleware: OperatorAuthentication(auth: auth))
        let versions = APIVersionMiddleware(
            versions: TenantReadCache { [tenants = store.tenants] in
                APIVersion.pinned(try await tenants.tenant(id: $0)?.apiVersion)
            })
        let merchant = router.group("v1").add(middleware: TenantAuthentication(auth: auth, scope: .payments))
            .add(middleware: versions)
        let tenantAdmin = router.group("v1").add(middleware: TenantAuthentication(auth: auth, scope: .admin))
            .add(middleware: versions)
        HealthController(probes: store.probes, registry: deps.registry).register(on: router)
        MetricsEndpoint(deps).register(on: operatorOnly)
        let payments = PaymentsController(service: deps.service, records: store.records, bodyLimit: deps.bodyLimit)
        let idempotency = IdempotencyGate(
            claims: store.claims, payments: store.payments, service: deps.service, bodyLimit: deps.bodyLimit,
            releases: deps.keyReleases, instance: deps.instance)
        payments.register(on: merchant, idempotency: idempotency)
        let disputes = DisputesController(
            disputes: deps.service.disputes,
            evidenceBodyLimit: min(
                PlatformPolicy.maximumBodyBytes, deps.service.policy.platform.disputes.maxEvidenceBytes / 3 * 4 + 8_192)
        )
        disputes.register(on: merchant)
        disputes.registerAnswers(on: merchant, idempotency: idempotency)
        LedgerController(disputes: deps.service.disputes).register(on: merchant)
        CustomersController(service: deps.service, bodyLimit: deps.bodyLimit).register(
            on: merchant, idempotency: idempotency)
        PaymentOptionsController(service: deps.service, bodyLimit: deps.bodyLimit).register(on: merchant)
        NotificationsController(service: deps.service, log: store.notifications, bodyLimit: deps.bodyLimit).register(
            on: router)
        let now: @Sendable () -> Date = { [service = deps.service] in service.now() }
        let tenants = TenantAdminService(tenants: store.tenants, now: now)
        let accounts = ProviderAccountService(
            accounts: store.accounts,
            manifest: { [registry = deps.registry] in await registry.loadedManifest(pluginId: $0) }, now: now)
        AdminController(
            tenants: tenants, accounts: accounts, registry: deps.registry, notificationURL: deps.notificationURL,
            bodyLimit: deps.bodyLimit
        ).register(on: admin)
        let routing = RoutingAdminService(
            routing: store.routing, accounts: store.accounts,
            manifest: { [gateway = deps.gateway] in await gateway.manifest(pluginId: $0) }, policy: deps.service.policy,
            rollouts: store.rollouts)
        let stats = RoutingStatsService(
            stats: store.routingStats, accounts: store.configuration, policy: deps.service.policy, now: now)
        let replay = store.routingReplay.map {
            RoutingReplayService(
                decisions: $0, configuration: store.configuration,
                manifest: { [gateway = deps.gateway] in await gateway.manifest(pluginId: $0) },
                policy: deps.service.policy)
        }
        RoutingController(
            routing: routing, service: deps.service, tenants: tenants, bodyLimit: deps.bodyLimit, stats: stats,
            replay: replay
        )
        .register(operator: admin, tenant: tenantAdmin)
        OrchestrationController(
            review: store.review, service: deps.service, tenants: tenants, bodyLimit: deps.bodyLimit,
            reloadPolicy: deps.reloadPolicy, operators: store.operators
        ).register(on: admin)
        let endpoints = WebhookEndpointService(
            endpoints: store.endpoints, policy: deps.service.policy, resolver: SystemHostResolver(), clock: now)
        let events = WebhookEventService(events: store.events, policy: deps.service.policy)
        WebhooksController(events: events, endpoints: endpoints, bodyLimit: deps.bodyLimit).register(on: tenantAdmin)
        AdminWebhookEndpointsController(endpoints: endpoints, tenants: tenants, bodyLimit: deps.bodyLimit)
            .register(on: admin)
        OperatorController(
            operations: OperatorService(tenants: store.tenants, payments: store.search, events: store.events),
            tenants: tenants, events: events, now: now, bodyLimit: deps.bodyLimit
        ).register(on: admin)
        OperatorIdentityController().register(on: admin)
        AdminPaymentsController(
            service: deps.service, tenants: tenants, operators: store.operators, bodyLimit: deps.bodyLimit
        ).register(on: admin, idempotency: idempotency)
        AdminDisputesController(
            disputes: deps.service.disputes, tenants: tenants, operators: store.operators,
            evidenceBodyLimit: disputes.evidenceBodyLimit
        ).register(on: admin, idempotency: idempotency)
        if let operators = store.operators {
            OperatorsController(operators: operators, bodyLimit: deps.bodyLimit, clock: { deps.service.now() })
                .register(on: admin)
        }
        ConsoleController().register(on: router)
        return router
    }

    /// The application listening on `host:port` (port 0: any free port, reported to `onRunning`), with
    /// the connection bounds of `PlatformPolicy.Server` in force at start (connections per client address,
    /// request head, read and idle timeouts, most connections served at once).
    public static func application(
        _ deps: ServerDependencies, host: String, port: Int,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let bounds = deps.service.policy.platform.server
        return Application(
            router: router(deps),
            server: .guardedHTTP1(bounds, executor: deps.requestExecutor),
            configuration: .init(
                address: .hostname(host, port: port), serverName: "switchyard",
                availableConnectionsDelegate: MaximumAvailableConnections(bounds.maxConnections, logger: deps.logger)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: deps.logger)
    }
}
