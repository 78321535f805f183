import Foundation
import Hummingbird
import SwitchyardCore

/// A tenant's webhook endpoints as operators manage them: `/admin/v1/tenants/{tenant}/webhook-endpoints`
/// (list; create, `webhooks.manage`, the secret answered once), `…/{endpoint}` (change; `DELETE` disables),
/// `…/{endpoint}/rotate-secret` (`webhooks.manage`) and `…/{endpoint}/test` (`webhooks.replay`), with the
/// merchant API's rules and answers; every change is audited under the operator's name.
struct AdminWebhookEndpointsController: Sendable {
    let endpoints: WebhookEndpointService
    let tenants: TenantAdminService
    let bodyLimit: Int

    /// The body of a create: the merchant's, and the mode of the endpoint (test by default).
    struct CreateBody: Decodable {
        var url: String
        var eventTypes: [String]
        var description: String?
        var metadata: [String: String]?
        var livemode: Bool?

        enum CodingKeys: String, CodingKey {
            case url, description, metadata, livemode
            case eventTypes = "event_types"
        }
    }

    func register(on admin: RouterGroup<AppContext>) {
        let group = admin.group("tenants/:tenant/webhook-endpoints")
        group.get { request, context in
            let tenant = try await tenants.tenant(in: context).id
            let page = try ListQuery.page(request, statuses: WebhookEndpointService.statuses)
            let list = try await endpoints.endpoints(tenant: tenant, page: page)
            return JSONIO.response(.ok, ListResource(list, page, id: \.id) { WebhookEndpointResource($0) })
        }
        group.post { request, context in
            let tenant = try await tenants.tenant(in: context).id
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(CreateBody.self)
            let (endpoint, secret) = try await endpoints.create(
                tenant: tenant, url: body.url, description: body.description,
                metadata: try Metadata(body.metadata ?? [:]), eventTypes: body.eventTypes,
                livemode: body.livemode ?? false, actor: "operator")
            return JSONIO.response(.created, WebhookEndpointResource(endpoint, secret: secret))
        }
        group.post(":endpoint") { request, context in
            let (tenant, id) = try await target(context)
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(
                WebhooksController.EndpointUpdateBody.self)
            let endpoint = try await endpoints.update(
                tenant: tenant, id: id,
                update: WebhookEndpointUpdate(
                    url: body.url, description: body.description, eventTypes: body.eventTypes, enabled: body.enabled),
                actor: "operator")
            return JSONIO.response(.ok, WebhookEndpointResource(endpoint))
        }
        group.delete(":endpoint") { _, context in
            let (tenant, id) = try await target(context)
            return JSONIO.response(
                .ok, WebhookEndpointResource(try await endpoints.disable(tenant: tenant, id: id, actor: "operator")))
        }
        group.post(":endpoint/rotate-secret") { request, context in
            let (tenant, id) = try await target(context)
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(
                WebhooksController.RotateSecretBody.self)
            let (endpoint, secret) = try await endpoints.rotateSecret(
                tenant: tenant, id: id, expiresInSeconds: body.expiresInSeconds, actor: "operator")
            return JSONIO.response(.ok, WebhookEndpointResource(endpoint, secret: secret))
        }
        group.post(":endpoint/test") { request, context in
            let (tenant, id) = try await target(context)
            try await JSONIO.noFields(request, context, limit: bodyLimit)
            let delivery = try await endpoints.ping(tenant: tenant, id: id, actor: "operator")
            return JSONIO.response(.accepted, WebhookDeliveryResource(delivery))
        }
    }

    /// The tenant and its endpoint named in the path; `404` when either is not there.
    private func target(_ context: AppContext) async throws -> (UUID, String) {
        let tenant = try await tenants.tenant(in: context).id
        guard let id = context.parameters.get("endpoint"), id.count <= 64 else {
            throw CoreError.notFound("webhook endpoint")
        }
        return (tenant, try await endpoints.endpoint(tenant: tenant, id: id).id)
    }
}
