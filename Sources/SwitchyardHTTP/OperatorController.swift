import Foundation
import Hummingbird
import SwitchyardCore
import SwitchyardStore

/// The operator's cross-tenant views under `/admin/v1`: payment search by id or merchant reference (with
/// attempts and the routing decision), outbound webhook deliveries by status (dead letters) and their
/// replay. Every route needs the operator token.
struct OperatorController: Sendable {
    let store: PostgresStore
    let service: PaymentService
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
            let tenant = try await tenantId(context.parameters.get("tenant"), notFound: true)
            guard let event = context.parameters.get("event"), event.count <= 64 else {
                throw CoreError.notFound("event")
            }
            return try await WebhooksController.replay(
                store: store, settings: service.policy.platform.webhooks, tenant: tenant, eventId: event,
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
        let names = Dictionary(uniqueKeysWithValues: try await store.tenants().map { ($0.id, $0.name) })
        var hits: [PaymentHit] = []
        for location in try await store.paymentLocations(id: id, reference: reference, limit: 20) {
            guard let record = try await store.record(tenant: location.tenant, paymentId: location.paymentId)
            else { continue }
            hits.append(
                PaymentHit(
                    tenantId: location.tenant.uuidString.lowercased(), tenantName: names[location.tenant],
                    payment: PaymentResource(record, now: service.now())))
        }
        return hits
    }

    /// `?status=` (pending, succeeded, dead, canceled; default dead), optional `?tenant=`, `?limit=`
    /// (1…100, default 20): newest first across the tenants asked for.
    private func deliveries(_ request: Request) async throws -> [DeliveryHit] {
        let query = request.uri.queryParameters
        guard let status = WebhookDelivery.Status(rawValue: query.get("status") ?? "dead") else {
            throw APIError(.invalidStatus, "status must be pending, succeeded, dead or canceled")
        }
        let limit = try ListQuery.limit(query.get("limit"))
        var tenants = try await store.tenants()
        if let text = query.get("tenant") {
            let id = try await tenantId(text, notFound: false)
            tenants = tenants.filter { $0.id == id }
        }
        var hits: [DeliveryHit] = []
        for tenant in tenants {
            for delivery in try await store.webhookDeliveries(
                tenant: tenant.id, eventId: nil, status: status, limit: limit)
            {
                hits.append(
                    DeliveryHit(
                        tenantId: tenant.id.uuidString.lowercased(), tenantName: tenant.name,
                        delivery: WebhookDeliveryResource(delivery)))
            }
        }
        hits.sort { ($0.delivery.createdAt, $0.delivery.id) > ($1.delivery.createdAt, $1.delivery.id) }
        return Array(hits.prefix(limit))
    }

    /// A tenant named in a path (`404 not_found` when unknown) or a query (`400 invalid_tenant` when not
    /// a UUID, `404` when unknown).
    private func tenantId(_ text: String?, notFound: Bool) async throws -> UUID {
        guard let id = text.flatMap(UUID.init(uuidString:)) else {
            if notFound { throw CoreError.notFound("tenant") }
            throw APIError(.invalidTenant, "tenant must be a tenant id")
        }
        guard try await store.tenant(id: id) != nil else { throw CoreError.notFound("tenant") }
        return id
    }
}
