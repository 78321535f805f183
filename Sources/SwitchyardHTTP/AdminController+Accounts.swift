import Foundation
import HTTPTypes
import Hummingbird
import SwitchyardCore
import SwitchyardStore

extension AdminController {
    func registerAccounts(on admin: RouterGroup<AppContext>) {
        admin.post("tenants/:tenant/provider-accounts") { request, context in
            let tenant = try await tenant(context)
            let body = try JSONIO.decode(
                AdminBodies.CreateAccount.self, from: try await JSONIO.body(request, limit: bodyLimit))
            guard let manifest = await registry.plugin(id: body.plugin)?.manifest else {
                throw APIError(.unprocessableContent, "unknown_plugin", "no plugin with id '\(body.plugin)' is loaded")
            }
            let credentials = body.credentials ?? [:]
            for field in manifest.credentials where field.required && (credentials[field.name] ?? "").isEmpty {
                throw APIError(.badRequest, "missing_credential", "the credential '\(field.name)' is required")
            }
            let known = Set(manifest.credentials.map(\.name))
            if let unknown = credentials.keys.sorted().first(where: { !known.contains($0) }) {
                throw APIError(.badRequest, "unknown_credential", "the plugin has no credential named '\(unknown)'")
            }
            try validateBaseURL(body.baseURL)
            let account = ProviderAccount(
                id: UUID(), tenantId: tenant.id, name: body.name ?? manifest.provider, pluginId: manifest.id,
                environment: body.environment ?? "sandbox", baseURL: body.baseURL, credentials: credentials,
                secretFields: manifest.credentials.filter(\.secret).map(\.name), options: body.options ?? [:],
                enabled: body.enabled ?? true, createdAt: Date())
            let created = try await store.createAccount(account, actor: Self.actor)
            return JSONIO.response(
                .created,
                AdminBodies.AccountBody(created, notificationURL: gateway.notificationURL(accountId: created.id)))
        }
        admin.get("tenants/:tenant/provider-accounts") { request, context in
            let tenant = try await tenant(context)
            let accounts = try await store.accounts(tenant: tenant.id)
            return JSONIO.response(
                .ok,
                [
                    "data": accounts.map {
                        AdminBodies.AccountBody($0, notificationURL: gateway.notificationURL(accountId: $0.id))
                    }
                ])
        }
        admin.get("tenants/:tenant/provider-accounts/:account") { request, context in
            let account = try await account(context)
            return JSONIO.response(
                .ok, AdminBodies.AccountBody(account, notificationURL: gateway.notificationURL(accountId: account.id)))
        }
        admin.patch("tenants/:tenant/provider-accounts/:account") { request, context in
            var account = try await account(context)
            let body = try JSONIO.decode(
                AdminBodies.UpdateAccount.self, from: try await JSONIO.body(request, limit: bodyLimit))
            var changed: [String] = []
            if let name = body.name { account.name = name; changed.append("name") }
            if let environment = body.environment { account.environment = environment; changed.append("environment") }
            if let baseURL = body.baseURL {
                try validateBaseURL(baseURL)
                account.baseURL = baseURL
                changed.append("base_url")
            }
            if let enabled = body.enabled { account.enabled = enabled; changed.append("enabled") }
            if let options = body.options { account.options = options; changed.append("options") }
            if let credentials = body.credentials {
                let manifest = await registry.plugin(id: account.pluginId)?.manifest
                let known = Set(manifest?.credentials.map(\.name) ?? Array(account.credentials.keys))
                for (name, value) in credentials {
                    guard known.contains(name) else {
                        throw APIError(
                            .badRequest, "unknown_credential", "the plugin has no credential named '\(name)'")
                    }
                    account.credentials[name] = value
                    changed.append("credentials.\(name)")
                }
                if let manifest { account.secretFields = manifest.credentials.filter(\.secret).map(\.name) }
            }
            try await store.updateAccount(account, actor: Self.actor, changed: changed)
            return JSONIO.response(
                .ok, AdminBodies.AccountBody(account, notificationURL: gateway.notificationURL(accountId: account.id)))
        }
    }

    func account(_ context: AppContext) async throws -> ProviderAccount {
        let tenant = try await tenant(context)
        guard let id = context.parameters.get("account").flatMap(UUID.init(uuidString:)),
            let account = try await store.account(tenant: tenant.id, id: id)
        else { throw CoreError.notFound("provider account") }
        return account
    }

    func validateBaseURL(_ text: String) throws {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil
        else { throw APIError(.badRequest, "invalid_base_url", "base_url must be an absolute http(s) URL") }
    }
}
