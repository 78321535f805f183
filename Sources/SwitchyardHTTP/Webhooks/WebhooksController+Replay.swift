import Foundation
import Hummingbird
import SwitchyardCore

extension WebhooksController {
    /// Sends an event of `tenant` again (body: optional `endpoint`), within the tenant's replay quota:
    /// `202` with the new deliveries, `429 replay_quota_exceeded` with `Retry-After`, or `409
    /// no_webhook_endpoint`. Shared by the tenant's and the operator's replay routes.
    static func replay(
        events: WebhookEventService, tenant: UUID, eventId: String, actor: String,
        bodyLimit: Int, request: Request, context: AppContext
    ) async throws -> Response {
        let json = try await JSONIO.body(request, context, limit: bodyLimit)
        let body = json.data.isEmpty ? ReplayBody() : try json.decode(ReplayBody.self)
        switch try await events.replay(tenant: tenant, eventId: eventId, endpointId: body.endpoint, actor: actor) {
        case .delivered(let deliveries):
            return JSONIO.response(
                .accepted,
                ListResource(data: deliveries.map(WebhookDeliveryResource.init), hasMore: false, nextCursor: nil))
        case .quotaExceeded(let retryAfterSeconds):
            let settings = events.replaySettings
            var response = try APIError(
                .replayQuotaExceeded,
                "at most \(settings.replayLimit) replays per \(settings.replayWindowMs / 1000) s; try again later"
            ).response(from: request, context: context)
            response.headers[.retryAfter] = "\(retryAfterSeconds)"
            return response
        }
    }
}
