import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PluginHost
import SwitchyardCore
import SwitchyardStore

/// The operator's admin API under `/admin/v1`. Every change is audited by the store.
struct AdminController: Sendable {
    let store: PostgresStore
    let registry: PluginRegistry
    let gateway: PluginGateway
    let bodyLimit: Int
    /// The server's clock (the store's and the payment service's).
    var now: @Sendable () -> Date = { Date() }

    static let actor = "operator"

    /// Registers the routes on `admin`, the operator's `/admin/v1` group.
    func register(on admin: RouterGroup<AppContext>) {
        admin.post("tenants") { request, _ in
            let body = try JSONIO.decode(
                AdminBodies.CreateTenant.self, from: try await JSONIO.body(request, limit: bodyLimit))
            let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty, name.count <= 200 else {
                throw APIError(.badRequest, "invalid_name", "name must be 1 to 200 characters")
            }
            let tenant = try await store.createTenant(name: name, actor: Self.actor)
            return JSONIO.response(.created, AdminBodies.TenantBody(tenant))
        }
        admin.get("tenants") { _, _ in
            return JSONIO.response(.ok, ["data": try await store.tenants().map(AdminBodies.TenantBody.init)])
        }
        admin.get("tenants/:tenant") { request, context in
            return JSONIO.response(.ok, AdminBodies.TenantBody(try await tenant(context)))
        }
        admin.post("tenants/:tenant/api-keys") { request, context in
            let tenant = try await tenant(context)
            let body = try JSONIO.decode(
                AdminBodies.CreateKey.self, from: try await JSONIO.body(request, limit: bodyLimit))
            let scopes = body.scopes ?? [.payments]
            guard !scopes.isEmpty else {
                throw APIError(.badRequest, "invalid_scopes", "at least one scope is required")
            }
            try checkExpiry(body.expiresAt)
            let created = try await store.createAPIKey(
                tenant: tenant.id, name: body.name ?? "api key", scopes: scopes, expiresAt: body.expiresAt,
                actor: Self.actor)
            return JSONIO.response(.created, AdminBodies.KeyBody(created.key, secret: created.secret))
        }
        admin.get("tenants/:tenant/api-keys") { request, context in
            let tenant = try await tenant(context)
            return JSONIO.response(
                .ok, ["data": try await store.apiKeys(tenant: tenant.id).map { AdminBodies.KeyBody($0) }])
        }
        admin.delete("tenants/:tenant/api-keys/:key") { request, context in
            let tenant = try await tenant(context)
            guard let id = context.parameters.get("key").flatMap(UUID.init(uuidString:)),
                try await store.revokeAPIKey(tenant: tenant.id, id: id, actor: Self.actor)
            else { throw CoreError.notFound("api key") }
            return Response(status: .noContent)
        }
        admin.post("tenants/:tenant/api-keys/:key/rotate") { request, context in
            let tenant = try await tenant(context)
            let data = try await JSONIO.body(request, limit: bodyLimit)
            let body =
                data.isEmpty ? AdminBodies.RotateKey() : try JSONIO.decode(AdminBodies.RotateKey.self, from: data)
            let grace = body.graceSeconds ?? 86_400
            guard (0...2_592_000).contains(grace) else {
                throw APIError(.badRequest, "invalid_grace", "grace_seconds must be between 0 and 2592000 (30 days)")
            }
            try checkExpiry(body.expiresAt)
            guard let id = context.parameters.get("key").flatMap(UUID.init(uuidString:)),
                let created = try await store.rotateAPIKey(
                    tenant: tenant.id, id: id, grace: Double(grace),
                    expiresAt: body.expiresAt, actor: Self.actor)
            else { throw CoreError.notFound("api key") }
            return JSONIO.response(.created, AdminBodies.KeyBody(created.key, secret: created.secret))
        }
        registerAccounts(on: admin)
        admin.get("plugins") { _, _ in
            return JSONIO.response(.ok, await registry.snapshot())
        }
        admin.post("plugins/reload") { _, _ in
            _ = await registry.reload()
            return JSONIO.response(.ok, await registry.snapshot())
        }
        admin.get("audit") { request, _ in
            let tenant = request.uri.queryParameters.get("tenant").flatMap(UUID.init(uuidString:))
            return JSONIO.response(.ok, ["data": try await store.auditLog(tenant: tenant, limit: 200)])
        }
    }

    /// Refuses a key expiry that is not in the future: such a key would be unusable from the start.
    func checkExpiry(_ expiresAt: Date?) throws {
        if let expiresAt, expiresAt <= now() {
            throw APIError(.badRequest, "invalid_expires_at", "expires_at must be in the future")
        }
    }

    func tenant(_ context: AppContext) async throws -> Tenant {
        guard let id = context.parameters.get("tenant").flatMap(UUID.init(uuidString:)),
            let tenant = try await store.tenant(id: id)
        else { throw CoreError.notFound("tenant") }
        return tenant
    }
}
