import Foundation
import Hummingbird
import SwitchyardCore

/// The operator's cross-tenant views under `/admin/v1`: payment search by id or merchant reference (with
/// attempts and the routing decision), outbound webhook deliveries by status (dead letters) and their
/// replay. Every route needs the operator token.
struct OperatorController: Sendable {
    let operations: OperatorService
    let tenants: TenantAdminService
    let events: WebhookEventService
    /// The clock payments are rendered against.
    let now: @Sendable () -> Date
    let bodyLimit: Int

    /// A payment found by the search, with its tenant.
    struct PaymentHit: Encodable {
        var tenantId: String
        var tenantName: String?
        var payment: PaymentResource

        enum CodingKeys: String, CodingKey {
            case payment
            case tenantId = "tenant_id"
            case tenantName = "tenant_name"
        }
    }

    /// A webhook delivery with its tenant.
    struct DeliveryHit: Encodable {
        var tenantId: String
        var tenantName: String
        var delivery: WebhookDeliveryResource

        enum CodingKeys: String, CodingKey {
            case delivery
            case tenantId = "tenant_id"
            case tenantName = "tenant_name"
        }
    }

    func register(on admin: RouterGroup<AppContext>) {
        admin.get("payments") { request, _ in
            return JSONIO.response(.ok, ["data": try await searchPayments(request)])
        }
        admin.get("webhook-deliveries") { request, _ in
            return JSONIO.response(.ok, ["data": try await deliveries(request)])
        }
        admin.post("tenants/:tenant/events/:event/replay") { request, context in
            let tenant = try await tenants.tenant(in: context).id
            guard let event = context.parameters.get("event"), event.count <= 64 else {
                throw CoreError.notFound("event")
            }
            return try await WebhooksController.replay(
                events: events, tenant: tenant, eventId: event,
                actor: "operator", bodyLimit: bodyLimit, request: request, context: context)
        }
    }

    /// `?id=` or `?reference=` (exactly one), across every tenant, at most 20 hits, newest first.
    private func searchPayments(_ request: Request) async throws -> [PaymentHit] {
        let query = request.uri.queryParameters
        let id = query.get("id").map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        let reference = query.get("reference").flatMap { $0.isEmpty ? nil : $0 }
        guard (id == nil) != (reference == nil) else {
            throw APIError(.invalidQuery, "give exactly one of id or reference")
        }
        if let value = id ?? reference, value.count > 255 {
            throw APIError(.invalidQuery, "the search term must be at most 255 characters")
        }
        return try await operations.searchPayments(id: id, reference: reference).map { hit in
            PaymentHit(
                tenantId: hit.tenantId.uuidString.lowercased(), tenantName: hit.tenantName,
                payment: PaymentResource(hit.record, now: now()))
        }
    }

    /// `?status=` (pending, succeeded, dead, canceled; default dead), optional `?tenant=`, `?limit=`
    /// (1…100, default 20): newest first across the tenants asked for.
    private func deliveries(_ request: Request) async throws -> [DeliveryHit] {
        let query = request.uri.queryParameters
        guard let status = WebhookDelivery.Status(rawValue: query.get("status") ?? "dead") else {
            throw APIError(.invalidStatus, "status must be pending, succeeded, dead or canceled", param: "status")
        }
        let limit = try ListQuery.limit(query.get("limit"))
        var tenant: UUID?
        if let text = query.get("tenant") {
            // An unknown tenant is refused, never read as "every tenant" or answered with nothing.
            let unknown = APIError(.invalidTenant, "tenant must be the id of a tenant", param: "tenant")
            guard let id = UUID(uuidString: text) else { throw unknown }
            do {
                tenant = try await tenants.tenant(id: id).id
            } catch let error as CoreError where error.code == .notFound {
                throw unknown
            }
        }
        return try await operations.deliveries(status: status, tenant: tenant, limit: limit).map { hit in
            DeliveryHit(
                tenantId: hit.tenant.id.uuidString.lowercased(), tenantName: hit.tenant.name,
                delivery: WebhookDeliveryResource(hit.delivery))
        }
    }
}
