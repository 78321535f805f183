import Foundation

/// The operator's cross-tenant views: payments found by id or merchant reference, and outbound webhook
/// deliveries by status.
public struct OperatorService: Sendable {
    /// A payment found by the search, with its tenant's name (nil when the tenant is gone).
    public struct PaymentHit: Sendable {
        public var tenantId: UUID
        public var tenantName: String?
        public var record: PaymentRecord
    }

    /// A webhook delivery with its tenant.
    public struct DeliveryHit: Sendable {
        public var tenant: Tenant
        public var delivery: WebhookDelivery
    }

    /// Most hits a payment search returns.
    public static let searchLimit = 20

    let tenants: any TenantRepository
    let payments: any PaymentSearchRepository
    let events: any WebhookEventRepository

    public init(
        tenants: any TenantRepository, payments: any PaymentSearchRepository, events: any WebhookEventRepository
    ) {
        self.tenants = tenants
        self.payments = payments
        self.events = events
    }

    /// The payments with this id or this reference across every tenant, newest first, at most
    /// ``searchLimit``: the records are read per tenant in one batch each.
    public func searchPayments(id: String?, reference: String?) async throws -> [PaymentHit] {
        let locations = try await payments.paymentLocations(id: id, reference: reference, limit: Self.searchLimit)
        guard !locations.isEmpty else { return [] }
        let names = Dictionary(uniqueKeysWithValues: try await tenants.tenants().map { ($0.id, $0.name) })
        var tenantOrder: [UUID] = []
        var idsByTenant: [UUID: [String]] = [:]
        for location in locations {
            if idsByTenant[location.tenant] == nil { tenantOrder.append(location.tenant) }
            idsByTenant[location.tenant, default: []].append(location.paymentId)
        }
        var records: [UUID: [String: PaymentRecord]] = [:]
        for tenant in tenantOrder {
            let found = try await payments.records(tenant: tenant, paymentIds: idsByTenant[tenant] ?? [])
            records[tenant] = Dictionary(found.map { ($0.payment.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return locations.compactMap { location in
            records[location.tenant]?[location.paymentId].map {
                PaymentHit(tenantId: location.tenant, tenantName: names[location.tenant], record: $0)
            }
        }
    }

    /// Deliveries in `status`, newest first, across every tenant or only `tenant`; at most `limit`.
    /// `404 not_found` for an unknown tenant.
    public func deliveries(status: WebhookDelivery.Status, tenant: UUID?, limit: Int) async throws -> [DeliveryHit] {
        var all = try await tenants.tenants()
        if let tenant {
            _ = try await requireTenant(tenant)
            all = all.filter { $0.id == tenant }
        }
        var hits: [DeliveryHit] = []
        for tenant in all {
            for delivery in try await events.webhookDeliveries(
                tenant: tenant.id, eventId: nil, page: PageRequest(limit: limit, status: status.rawValue)
            ).prefix(limit) {
                hits.append(DeliveryHit(tenant: tenant, delivery: delivery))
            }
        }
        hits.sort { ($0.delivery.createdAt, $0.delivery.id) > ($1.delivery.createdAt, $1.delivery.id) }
        return Array(hits.prefix(limit))
    }

    /// The tenant with this id; `404 not_found` when there is none.
    @discardableResult
    public func requireTenant(_ id: UUID) async throws -> Tenant {
        guard let tenant = try await tenants.tenant(id: id) else { throw CoreError.notFound("tenant") }
        return tenant
    }
}
