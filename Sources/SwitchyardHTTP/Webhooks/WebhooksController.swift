import Foundation
import Hummingbird
import SwitchyardCore

/// A tenant's outbound webhooks, with an `admin`-scoped key: endpoints (`/v1/webhook-endpoints`), the
/// events of its payments, refunds and credentials (`/v1/events`), their deliveries and replays.
struct WebhooksController: Sendable {
    let events: WebhookEventService
    let endpoints: WebhookEndpointService
    let bodyLimit: Int

    struct EndpointBody: Decodable {
        var url: String
        var eventTypes: [String]
        var description: String?
        var metadata: [String: String]?

        enum CodingKeys: String, CodingKey {
            case url, description, metadata
            case eventTypes = "event_types"
        }
    }

    struct ReplayBody: Decodable {
        var endpoint: String?
    }

    func register(on v1: RouterGroup<AppContext>) {
        v1.post("webhook-endpoints") { request, context in
            let key = try context.apiKey
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(EndpointBody.self)
            let (endpoint, secret) = try await endpoints.create(
                tenant: key.tenantId, url: body.url, description: body.description,
                metadata: try Metadata(body.metadata ?? [:]), eventTypes: body.eventTypes, livemode: key.livemode,
                actor: "api_key:\(key.prefix)")
            return JSONIO.response(.created, WebhookEndpointResource(endpoint, secret: secret))
        }
        v1.get("webhook-endpoints") { request, context in
            let key = try context.apiKey
            let page = Self.ofMode(key, try ListQuery.page(request, statuses: WebhookEndpointService.statuses))
            let list = try await endpoints.endpoints(tenant: key.tenantId, page: page)
            return JSONIO.response(.ok, ListResource(list, page, id: \.id) { WebhookEndpointResource($0) })
        }
        v1.get("webhook-endpoints/:endpoint") { request, context in
            let key = try context.apiKey
            let endpoint = try await endpoints.endpoint(
                tenant: key.tenantId, id: try id(context, "endpoint"), livemode: key.livemode)
            return JSONIO.response(.ok, WebhookEndpointResource(endpoint))
        }
        registerEndpointChanges(on: v1)
        v1.delete("webhook-endpoints/:endpoint") { request, context in
            let key = try context.apiKey
            let endpoint = try await endpoints.disable(
                tenant: key.tenantId, id: try await endpointId(context), actor: "api_key:\(key.prefix)")
            return JSONIO.response(.ok, WebhookEndpointResource(endpoint))
        }
        v1.get("events") { request, context in
            let key = try context.apiKey
            let query = request.uri.queryParameters
            let page = Self.ofMode(key, try ListQuery.page(request))
            let type = query.get("type")
            if let type, type != WebhookEventType.ping, !WebhookEventType.all.contains(type) {
                throw APIError(.invalidParameter, "type must be an event type, e.g. payment.succeeded", param: "type")
            }
            let list = try await events.events(
                tenant: key.tenantId, type: type, objectId: query.get("object"), page: page)
            return JSONIO.response(.ok, try ListResource(list, page, id: \.id, WebhookEventResource.init))
        }
        v1.get("events/:event") { request, context in
            let key = try context.apiKey
            let event = try await events.event(
                tenant: key.tenantId, id: try id(context, "event"), livemode: key.livemode)
            return JSONIO.response(.ok, try WebhookEventResource(event))
        }
        v1.get("events/:event/deliveries") { request, context in
            let key = try context.apiKey
            let page = Self.ofMode(
                key, try ListQuery.page(request, statuses: WebhookDelivery.Status.allCases.map(\.rawValue)))
            let deliveries = try await events.deliveries(
                tenant: key.tenantId, eventId: try id(context, "event"), page: page)
            return JSONIO.response(.ok, ListResource(deliveries, page, id: \.id, WebhookDeliveryResource.init))
        }
        v1.post("events/:event/replay") { request, context in
            let key = try context.apiKey
            return try await Self.replay(
                events: events, tenant: key.tenantId,
                eventId: try await eventId(context), actor: "api_key:\(key.prefix)", bodyLimit: bodyLimit,
                request: request, context: context)
        }
        v1.get("webhook-deliveries") { request, context in
            let key = try context.apiKey
            let page = Self.ofMode(
                key, try ListQuery.page(request, statuses: WebhookDelivery.Status.allCases.map(\.rawValue)))
            let deliveries = try await events.deliveries(tenant: key.tenantId, eventId: nil, page: page)
            return JSONIO.response(.ok, ListResource(deliveries, page, id: \.id, WebhookDeliveryResource.init))
        }
    }

    func id(_ context: AppContext, _ name: String) throws -> String {
        guard let id = context.parameters.get(name), id.count <= 64 else { throw CoreError.notFound(name) }
        return id
    }

    /// The endpoint named in the path, once it is known to be of the key's mode (else `404`).
    func endpointId(_ context: AppContext) async throws -> String {
        let (id, key) = (try id(context, "endpoint"), try context.apiKey)
        return try await endpoints.endpoint(tenant: key.tenantId, id: id, livemode: key.livemode).id
    }

    /// The event named in the path, once it is known to be of the key's mode (else `404`).
    func eventId(_ context: AppContext) async throws -> String {
        let (id, key) = (try id(context, "event"), try context.apiKey)
        return try await events.event(tenant: key.tenantId, id: id, livemode: key.livemode).id
    }

    /// `page` restricted to the objects of the key's mode.
    static func ofMode(_ key: APIKey, _ page: PageRequest) -> PageRequest {
        var page = page
        page.livemode = key.livemode
        return page
    }
}
