import Foundation
import HTTPTypes
import Hummingbird
import SwitchyardCore

extension AdminController {
    func registerAccounts(on admin: RouterGroup<AppContext>) {
        admin.post("tenants/:tenant/provider-accounts") { request, context in
            let tenant = try await tenants.tenant(in: context)
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(AdminBodies.CreateAccount.self)
            let created = try await accounts.create(
                tenant: tenant.id,
                .init(
                    name: body.name, plugin: body.plugin, environment: body.environment, baseURL: body.baseURL,
                    credentials: body.credentials, options: body.options, enabled: body.enabled, fees: body.fees),
                actor: Self.actor)
            return JSONIO.response(.created, accountBody(created))
        }
        admin.get("tenants/:tenant/provider-accounts") { request, context in
            let tenant = try await tenants.tenant(in: context)
            let page = try ListQuery.page(request, statuses: ProviderAccountService.statuses)
            let found = try await accounts.accounts(tenant: tenant.id, page: page)
            return JSONIO.response(.ok, ListResource(found, page, id: { $0.id.uuidString.lowercased() }, accountBody))
        }
        admin.get("tenants/:tenant/provider-accounts/:account") { _, context in
            JSONIO.response(.ok, accountBody(try await account(context)))
        }
        admin.patch("tenants/:tenant/provider-accounts/:account") { request, context in
            let account = try await account(context)
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(AdminBodies.UpdateAccount.self)
            let updated = try await accounts.update(
                account,
                .init(
                    name: body.name, environment: body.environment, baseURL: body.baseURL,
                    credentials: body.credentials, options: body.options, enabled: body.enabled, fees: body.fees),
                actor: Self.actor)
            return JSONIO.response(.ok, accountBody(updated))
        }
    }

    /// The account named in the path, of the tenant named in it; `404` when either is unknown.
    func account(_ context: AppContext) async throws -> ProviderAccount {
        let tenant = try await tenants.tenant(in: context)
        return try await accounts.account(tenant: tenant.id, id: Self.uuid(context, "account"))
    }

    private func accountBody(_ account: ProviderAccount) -> AdminBodies.AccountBody {
        AdminBodies.AccountBody(account, notificationURL: notificationURL(account.id))
    }
}
