import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import SwitchyardHTTP
import Testing

/// Switchyard's real router over in-memory repositories, a scripted provider gateway, a static plugin
/// catalog and a manual clock, driven in process by Hummingbird's test client: the HTTP layer without
/// PostgreSQL, sandboxes or plugins.
struct RouterWorld: Sendable {
    static let operatorToken = "op_R7f2Kq9ZmW4xVb8NcT3yHj6LpD1sGa5E"
    static let pluginId = "scripted"

    let clock = ManualClock()
    let tenants: InMemoryTenantRepository
    let accounts = InMemoryAccountRepository()
    let routing: InMemoryRoutingRepository
    let payments: InMemoryPaymentRepository
    let gateway = ScriptedGateway()
    /// The database's answers to readiness and the scrape-time gauges.
    let probes = InMemoryProbes()
    let dependencies: ServerDependencies

    /// A world whose merchant listing reads `records` when given (e.g. a failing one).
    init(
        bodyLimit: Int = 64 * 1024, policy: PlatformPolicy = PlatformPolicy(),
        records: (any PaymentRecordListing)? = nil
    ) {
        tenants = InMemoryTenantRepository(now: clock.now)
        routing = InMemoryRoutingRepository(now: clock.now)
        payments = InMemoryPaymentRepository(clock: clock.now)
        let manifest = ScriptedGateway.manifest(Self.pluginId)
        gateway.register(manifest)
        let logger = Logger(label: "router-test", factory: { _ in SwiftLogNoOpLogHandler() })
        let configuration = InMemoryAdminConfiguration(tenants: tenants, accounts: accounts, routing: routing)
        let service = PaymentService(
            payments: payments, configuration: configuration,
            gateway: gateway, credentials: InMemoryCredentials(payments: payments),
            disputes: InMemoryDisputes(payments: payments), ids: TestIdentifiers.random,
            clock: clock.now, logger: logger, policy: PolicyCenter(policy))
        let repositories = ServerRepositories(
            tenants: tenants, accounts: accounts, routing: routing, payments: payments, claims: payments,
            records: records ?? payments, search: InMemoryPaymentSearch(),
            events: InMemoryWebhookEvents(now: clock.now),
            endpoints: InMemoryWebhookEndpointRepository(now: clock.now), notifications: InMemoryNotificationLog(),
            review: InMemoryReview(payments: payments), probes: probes,
            routingStats: payments, configuration: configuration, operators: InMemoryOperators(now: clock.now))
        dependencies = ServerDependencies(
            repositories: repositories, service: service, registry: StaticPluginCatalog([manifest]),
            gateway: gateway, notificationURL: { "https://switchyard.invalid/notifications/\($0)" },
            operatorToken: Self.operatorToken, bodyLimit: bodyLimit, logger: logger)
    }

    /// Runs `body` against the router, in process.
    func test(_ body: @Sendable (Client) async throws -> Void) async throws {
        let app = Application(router: SwitchyardServer.router(dependencies), logger: dependencies.logger)
        try await app.test(.router) { client in try await body(Client(client: client)) }
    }

    /// Runs `body` against the router of the separate metrics listener, in process.
    func testMetricsListener(_ body: @Sendable (Client) async throws -> Void) async throws {
        let app = Application(router: MetricsEndpoint.listenerRouter(dependencies), logger: dependencies.logger)
        try await app.test(.router) { client in try await body(Client(client: client)) }
    }

    /// A tenant with an API key of `scopes`, one account of the scripted plugin and one rule routing
    /// everything to it, all created through the admin API.
    func merchant(_ client: Client, name: String = "Shop", scopes: [String] = ["payments", "admin"]) async throws
        -> Merchant
    {
        let tenant = try await client.send(.post, "/admin/v1/tenants", token: Self.operatorToken, ["name": name])
        try #require(tenant.status == .created, "\(tenant.text)")
        let tenantId = try #require(tenant.json["id"] as? String)
        let key = try await client.send(
            .post, "/admin/v1/tenants/\(tenantId)/api-keys", token: Self.operatorToken,
            ["name": "k", "scopes": scopes])
        try #require(key.status == .created, "\(key.text)")
        let account = try await client.send(
            .post, "/admin/v1/tenants/\(tenantId)/provider-accounts", token: Self.operatorToken,
            ["name": "main", "plugin": Self.pluginId, "base_url": "https://provider.invalid", "credentials": [:]])
        try #require(account.status == .created, "\(account.text)")
        let accountId = try #require(account.json["id"] as? String)
        let rules = try await client.send(
            .put, "/admin/v1/tenants/\(tenantId)/routing", token: Self.operatorToken,
            ["rules": [["name": "everything", "match": [:], "accounts": [accountId]]]])
        try #require(rules.status == .ok, "\(rules.text)")
        return Merchant(
            tenantId: tenantId, apiKey: try #require(key.json["secret"] as? String), accountId: accountId)
    }

    /// The id of a payment of `m` the scripted provider authorised, waiting for a manual capture.
    func authorizedPayment(_ client: Client, _ m: Merchant) async throws -> String {
        gateway.script(.authorize, Outcome(kind: .authorized, providerPaymentId: "psp-1"))
        let created = try await client.send(
            .post, "/v1/payments", token: m.apiKey, Self.payment().merging(["capture_mode": "manual"]) { $1 })
        try #require(created.status == .created, "\(created.text)")
        return try #require(created.json["id"] as? String)
    }

    /// A payment request body.
    static func payment(reference: String = "order-1", amount: Int = 1_234) -> [String: Any] {
        ["amount": amount, "currency": "EUR", "country": "FR", "method": "card", "reference": reference]
    }
}

/// A tenant created through the admin API.
struct Merchant: Sendable {
    var tenantId: String
    var apiKey: String
    var accountId: String
}

/// Hummingbird's test client with JSON helpers.
struct Client: Sendable {
    let client: any TestClientProtocol

    /// Sends `json` (or the raw `body`) with a bearer `token` and extra `headers`.
    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, _ json: Any? = nil, body: Data? = nil,
        headers extra: [String: String] = [:]
    ) async throws -> Reply {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        let data = try json.map { try JSONSerialization.data(withJSONObject: $0) } ?? body
        if data != nil { headers[.contentType] = "application/json" }
        for (name, value) in extra { headers[HTTPField.Name(name)!] = value }
        let response = try await client.executeRequest(
            uri: path, method: method, headers: headers, body: data.map { ByteBuffer(bytes: $0) })
        return Reply(
            status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
    }
}

/// A response with its JSON read.
struct Reply: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    /// The error envelope's code.
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
}
