import Foundation
import Hummingbird
import SwitchyardCore
import SwitchyardStore

extension WebhooksController {
    /// Sends an event of `tenant` again (body: optional `endpoint`), within the tenant's replay quota:
    /// `202` with the new deliveries, `429 replay_quota_exceeded` with `Retry-After`, or `409
    /// no_webhook_endpoint`. Shared by the tenant's and the operator's replay routes.
    static func replay(
        store: PostgresStore, settings: PlatformPolicy.Webhooks, tenant: UUID, eventId: String, actor: String,
        bodyLimit: Int, request: Request, context: AppContext
    ) async throws -> Response {
        let data = try await JSONIO.body(request, limit: bodyLimit)
        let body = data.isEmpty ? ReplayBody() : try JSONIO.decode(ReplayBody.self, from: data)
        let deliveries: [WebhookDelivery]
        do {
            deliveries = try await store.replayWebhookEvent(
                tenant: tenant, eventId: eventId, endpointId: body.endpoint, actor: actor,
                limit: settings.replayLimit, window: Double(settings.replayWindowMs) / 1000)
        } catch let error as WebhookReplayQuotaExceeded {
            var response = try APIError(
                .replayQuotaExceeded,
                "at most \(settings.replayLimit) replays per \(settings.replayWindowMs / 1000) s; try again later"
            ).response(from: request, context: context)
            response.headers[.retryAfter] = "\(error.retryAfterSeconds)"
            return response
        }
        if deliveries.isEmpty {
            throw CoreError(.noWebhookEndpoint, "no enabled endpoint receives this event")
        }
        return JSONIO.response(
            .accepted,
            ListResource(data: deliveries.map(WebhookDeliveryResource.init), hasMore: false, nextCursor: nil))
    }
}
