import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SwitchyardCore

/// The operator's admin API under `/admin/v1`: tenants, their API keys and provider accounts, plugins and
/// the audit log. The rules live in the Core services; every change is audited.
struct AdminController: Sendable {
    let tenants: TenantAdminService
    let accounts: ProviderAccountService
    let registry: any PluginCatalog
    /// The notification URL of an account, shown with it.
    let notificationURL: @Sendable (UUID) -> String
    let bodyLimit: Int

    static let actor = "operator"

    /// Registers the routes on `admin`, the operator's `/admin/v1` group.
    func register(on admin: RouterGroup<AppContext>) {
        admin.post("tenants") { request, context in
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(AdminBodies.CreateTenant.self)
            let tenant = try await tenants.createTenant(name: body.name, actor: Self.actor)
            return JSONIO.response(.created, AdminBodies.TenantBody(tenant))
        }
        admin.get("tenants") { request, _ in
            let page = try ListQuery.page(request)
            let found = try await tenants.tenants(page: page)
            return JSONIO.response(
                .ok, ListResource(found, page, id: { $0.id.uuidString.lowercased() }, AdminBodies.TenantBody.init))
        }
        admin.get("tenants/:tenant") { _, context in
            JSONIO.response(.ok, AdminBodies.TenantBody(try await tenants.tenant(in: context)))
        }
        admin.patch("tenants/:tenant") { request, context in
            let tenant = try await tenants.tenant(in: context)
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(AdminBodies.PatchTenant.self)
            let moved = try await tenants.setAPIVersion(tenant: tenant.id, version: body.apiVersion, actor: Self.actor)
            return JSONIO.response(.ok, AdminBodies.TenantBody(moved))
        }
        admin.post("tenants/:tenant/api-keys") { request, context in
            let tenant = try await tenants.tenant(in: context)
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(AdminBodies.CreateKey.self)
            let created = try await tenants.createAPIKey(
                tenant: tenant.id, name: body.name, scopes: body.scopes, expiresAt: body.expiresAt,
                livemode: body.livemode ?? false, actor: Self.actor)
            return JSONIO.response(.created, AdminBodies.KeyBody(created.key, secret: created.secret))
        }
        admin.get("tenants/:tenant/api-keys") { request, context in
            let tenant = try await tenants.tenant(in: context)
            let page = try ListQuery.page(request)
            let found = try await tenants.apiKeys(tenant: tenant.id, page: page)
            return JSONIO.response(
                .ok, ListResource(found, page, id: { $0.id.uuidString.lowercased() }) { AdminBodies.KeyBody($0) })
        }
        admin.delete("tenants/:tenant/api-keys/:key") { _, context in
            let tenant = try await tenants.tenant(in: context)
            try await tenants.revokeAPIKey(tenant: tenant.id, id: Self.uuid(context, "key"), actor: Self.actor)
            return Response(status: .noContent)
        }
        admin.post("tenants/:tenant/api-keys/:key/rotate") { request, context in
            let tenant = try await tenants.tenant(in: context)
            let json = try await JSONIO.body(request, context, limit: bodyLimit)
            let body =
                json.data.isEmpty ? AdminBodies.RotateKey() : try json.decode(AdminBodies.RotateKey.self)
            let created = try await tenants.rotateAPIKey(
                tenant: tenant.id, id: Self.uuid(context, "key"), graceSeconds: body.graceSeconds,
                expiresAt: body.expiresAt, actor: Self.actor)
            return JSONIO.response(.created, AdminBodies.KeyBody(created.key, secret: created.secret))
        }
        registerAccounts(on: admin)
        admin.get("plugins") { _, _ in
            JSONIO.response(.ok, await registry.catalog())
        }
        admin.post("plugins/reload") { _, _ in
            JSONIO.response(.ok, await registry.reloadCatalog())
        }
        admin.get("audit") { request, _ in
            let page = try ListQuery.page(request)
            let tenant = try await ListQuery.tenant(request, tenants: tenants)
            var operatorId: UUID?
            if let text = request.uri.queryParameters.get("operator") {
                guard let id = UUID(uuidString: text) else {
                    throw APIError(.invalidParameter, "operator must be the id of an operator", param: "operator")
                }
                operatorId = id
            }
            let entries = try await tenants.auditLog(tenant: tenant, operatorId: operatorId, page: page)
            return JSONIO.response(.ok, ListResource(entries, page, id: { "\($0.id)" }) { $0 })
        }
    }

    /// The path parameter `name` as a UUID; nil when absent or not a UUID.
    static func uuid(_ context: AppContext, _ name: String) -> UUID? {
        context.parameters.get(name).flatMap(UUID.init(uuidString:))
    }
}
