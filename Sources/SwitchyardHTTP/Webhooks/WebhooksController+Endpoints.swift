import Foundation
import Hummingbird
import SwitchyardCore

/// Changes to an endpoint after registration: `POST /v1/webhook-endpoints/{id}` (url, description, event
/// types, enabled), `…/rotate-secret` (a new secret, the old one signing beside it for an overlap) and
/// `…/test` (a signed `ping` to that endpoint alone, recorded as a delivery).
extension WebhooksController {
    struct EndpointUpdateBody: Decodable {
        var url: String?
        var description: String?
        var eventTypes: [String]?
        var enabled: Bool?

        enum CodingKeys: String, CodingKey {
            case url, description, enabled
            case eventTypes = "event_types"
        }
    }

    struct RotateSecretBody: Decodable {
        var expiresInSeconds: Int?

        enum CodingKeys: String, CodingKey {
            case expiresInSeconds = "expires_in_seconds"
        }
    }

    func registerEndpointChanges(on v1: RouterGroup<AppContext>) {
        v1.post("webhook-endpoints/:endpoint") { request, context in
            let key = try context.apiKey
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(EndpointUpdateBody.self)
            let endpoint = try await endpoints.update(
                tenant: key.tenantId, id: try await endpointId(context),
                update: WebhookEndpointUpdate(
                    url: body.url, description: body.description, eventTypes: body.eventTypes,
                    enabled: body.enabled),
                actor: "api_key:\(key.prefix)")
            return JSONIO.response(.ok, WebhookEndpointResource(endpoint))
        }
        v1.post("webhook-endpoints/:endpoint/rotate-secret") { request, context in
            let key = try context.apiKey
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(RotateSecretBody.self)
            let (endpoint, secret) = try await endpoints.rotateSecret(
                tenant: key.tenantId, id: try await endpointId(context), expiresInSeconds: body.expiresInSeconds,
                actor: "api_key:\(key.prefix)")
            return JSONIO.response(.ok, WebhookEndpointResource(endpoint, secret: secret))
        }
        v1.post("webhook-endpoints/:endpoint/test") { request, context in
            try await JSONIO.noFields(request, context, limit: bodyLimit)
            let key = try context.apiKey
            let delivery = try await endpoints.ping(
                tenant: key.tenantId, id: try await endpointId(context), actor: "api_key:\(key.prefix)")
            return JSONIO.response(.accepted, WebhookDeliveryResource(delivery))
        }
    }
}
