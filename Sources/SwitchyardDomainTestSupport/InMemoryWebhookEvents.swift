import Foundation
import SwitchyardCore

/// Tenants' webhook events and deliveries in memory, for fast tests of the services over a
/// ``WebhookEventRepository``. A replay makes one delivery per endpoint given to ``subscribe(tenant:endpointId:)``
/// (or only the one asked for) and keeps the quota over every replay made so far.
public actor InMemoryWebhookEvents: WebhookEventRepository {
    private var events: [WebhookEvent] = []
    private var deliveries: [(tenant: UUID, delivery: WebhookDelivery)] = []
    private var endpoints: [UUID: [String]] = [:]
    private var replays: [(tenant: UUID, at: Date)] = []
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// Adds an event.
    public func add(_ event: WebhookEvent) { events.append(event) }

    /// Adds a delivery of an event of `tenant`.
    public func add(_ delivery: WebhookDelivery, tenant: UUID) { deliveries.append((tenant, delivery)) }

    /// Gives `tenant` an enabled endpoint that receives every event.
    public func subscribe(tenant: UUID, endpointId: String) { endpoints[tenant, default: []].append(endpointId) }

    public func webhookEvents(tenant: UUID, type: String?, objectId: String?, page: PageRequest)
        async throws -> [WebhookEvent]
    {
        try page.select(
            events.filter {
                $0.tenantId == tenant && (type == nil || $0.type == type)
                    && (objectId == nil || $0.objectId == objectId)
            }, id: \.id, created: \.createdAt, livemode: \.livemode)
    }

    public func webhookEvent(tenant: UUID, id: String) async throws -> WebhookEvent? {
        events.first { $0.tenantId == tenant && $0.id == id }
    }

    public func webhookDeliveries(tenant: UUID, eventId: String?, page: PageRequest) async throws
        -> [WebhookDelivery]
    {
        try page.select(
            deliveries.filter { $0.tenant == tenant && (eventId == nil || $0.delivery.eventId == eventId) }
                .map(\.delivery),
            id: \.id, created: \.createdAt, status: \.status.rawValue)
    }

    public func replayEvent(
        tenant: UUID, eventId: String, endpointId: String?, actor: String, limit: Int, window: TimeInterval
    ) async throws -> WebhookReplayResult {
        let time = now()
        let earlier = replays.filter { $0.tenant == tenant && $0.at > time.addingTimeInterval(-window) }
        if earlier.count >= limit {
            let oldest = earlier.map(\.at).min() ?? time
            let wait = oldest.addingTimeInterval(window).timeIntervalSince(time)
            return .quotaExceeded(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
        }
        guard try await webhookEvent(tenant: tenant, id: eventId) != nil else { throw CoreError.notFound("event") }
        let targets = (endpoints[tenant] ?? []).filter { endpointId == nil || $0 == endpointId }
        let made = targets.map { endpoint in
            WebhookDelivery(
                id: "whd_\(deliveries.count)_\(endpoint)", eventId: eventId, endpointId: endpoint, status: .pending,
                attemptCount: 0, nextAttemptAt: time, lastStatusCode: nil, lastError: nil, replayOf: nil,
                createdAt: time, updatedAt: time, deliveredAt: nil)
        }
        for delivery in made {
            deliveries.append((tenant, delivery))
            replays.append((tenant, time))
        }
        return .delivered(made)
    }

    /// Deletes up to `limit` deliveries in a final status last changed before `cutoff`, oldest first, as
    /// the store's retention does; returns how many.
    func deleteFinalDeliveries(before cutoff: Date, limit: Int) -> Int {
        let doomed = deliveries.map(\.delivery).filter { $0.status != .pending && $0.updatedAt < cutoff }
            .sorted { $0.updatedAt < $1.updatedAt }.prefix(max(0, limit)).map(\.id)
        deliveries.removeAll { doomed.contains($0.delivery.id) }
        return doomed.count
    }

    /// Deletes up to `limit` events created before `cutoff` with no delivery left, oldest first; returns
    /// how many.
    func deleteUndeliveredEvents(before cutoff: Date, limit: Int) -> Int {
        let delivered = Set(deliveries.map(\.delivery.eventId))
        let doomed = events.filter { $0.createdAt < cutoff && !delivered.contains($0.id) }
            .sorted { $0.createdAt < $1.createdAt }.prefix(max(0, limit)).map(\.id)
        events.removeAll { doomed.contains($0.id) }
        return doomed.count
    }

    /// Every delivery kept, in any tenant (for assertions).
    public var allDeliveries: [WebhookDelivery] { deliveries.map(\.delivery) }
    /// Every event kept, in any tenant (for assertions).
    public var allEvents: [WebhookEvent] { events }
}
