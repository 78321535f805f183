import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// The janitor deletes finished data once its retention has passed, a bounded batch of each kind per look,
/// and keeps whatever is still needed whatever its age.
struct JanitorRetentionTests {
    struct RecordedTwice: Error {}

    static let hour: TimeInterval = 3600
    /// The default `retention.interval_seconds`.
    static let interval = TimeInterval(PlatformPolicy.Retention().intervalSeconds)

    func world(batch: Int = 1_000) -> DomainWorld {
        var policy = PlatformPolicy()
        policy.retention.batchSize = batch
        return DomainWorld(policy: policy)
    }

    func answerKey(_ world: DomainWorld, _ key: String) async throws {
        let claim = try await world.payments.claimIdempotent(
            tenant: world.tenant, key: key, requestHash: "h", owner: "o-\(key)", lease: 60)
        #expect(claim == .proceed)
        #expect(
            try await world.payments.finishIdempotent(
                tenant: world.tenant, key: key, owner: "o-\(key)",
                outcome: .failure(CoreError(.badRequest, "no"))))
    }

    @Test func answeredKeysGoAfterADayAndUnansweredOnesStay() async throws {
        let world = world()
        try await answerKey(world, "answered")
        _ = try await world.payments.claimIdempotent(
            tenant: world.tenant, key: "running", requestHash: "h", owner: "o", lease: 60)
        world.clock.advance(24 * Self.hour - 1)
        await world.janitor.runOnce()
        #expect(world.payments.holdsIdempotencyKey(tenant: world.tenant, key: "answered"), "not a day old yet")
        world.clock.advance(2)
        await world.janitor.runOnce()
        #expect(
            world.payments.holdsIdempotencyKey(tenant: world.tenant, key: "answered"),
            "a day old, but the keys were looked at less than retention.interval_seconds ago")
        world.clock.advance(Self.interval - 2)
        await world.janitor.runOnce()
        #expect(!world.payments.holdsIdempotencyKey(tenant: world.tenant, key: "answered"))
        world.clock.advance(1_000 * Self.hour)
        await world.janitor.runOnce()
        #expect(world.payments.holdsIdempotencyKey(tenant: world.tenant, key: "running"), "never answered")
    }

    @Test func eachLookDeletesAtMostOneBatchOfAKind() async throws {
        let world = world(batch: 2)
        for key in ["k1", "k2", "k3"] { try await answerKey(world, key) }
        world.clock.advance(25 * Self.hour)
        func kept() -> Int {
            ["k1", "k2", "k3"].filter { world.payments.holdsIdempotencyKey(tenant: world.tenant, key: $0) }.count
        }
        await world.janitor.runOnce()
        #expect(kept() == 1)
        await world.janitor.runOnce()
        #expect(kept() == 0)
    }

    @Test func aKeyReplayedAfterItsRetentionIsAFreshRequest() async throws {
        let world = world()
        let first = IdempotencyScope(tenant: world.tenant, key: "order-1", requestHash: "h", owner: "a", lease: 60)
        let request = try world.request()
        world.gateway.script(.authorize, .succeeded(), .succeeded())
        guard
            case .success(let created)? = await world.service.create(
                tenant: world.tenant, request, idempotency: first
            ).answeredWithWork
        else {
            Issue.record("the first create was not answered")
            return
        }
        world.clock.advance(23 * Self.hour)
        await world.janitor.runOnce()
        let replay = IdempotencyScope(tenant: world.tenant, key: "order-1", requestHash: "h", owner: "b", lease: 60)
        let replayed = await world.service.create(tenant: world.tenant, request, idempotency: replay)
        guard let claim = replayed.turnedAway else {
            Issue.record("within the day the key replays: \(replayed)")
            return
        }
        #expect(claim == .replay(.createdPayment(created.payment.id)))
        world.clock.advance(2 * Self.hour)
        await world.janitor.runOnce()
        let late = IdempotencyScope(tenant: world.tenant, key: "order-1", requestHash: "h", owner: "c", lease: 60)
        guard
            case .success(let again)? = await world.service.create(
                tenant: world.tenant, request, idempotency: late
            ).answeredWithWork
        else {
            Issue.record("after the retention the same key and body is not created anew")
            return
        }
        #expect(again.payment.id != created.payment.id)
        #expect(world.gateway.calls(.authorize).count == 2)
        #expect(
            try await world.payments.records(tenant: world.tenant, reference: nil, startingAfter: nil, limit: 10).count
                == 2)
    }

    func delivery(_ id: String, event: String, _ status: WebhookDelivery.Status, at time: Date) -> WebhookDelivery {
        WebhookDelivery(
            id: id, eventId: event, endpointId: "we_1", status: status, attemptCount: 1, nextAttemptAt: nil,
            lastStatusCode: nil, lastError: nil, replayOf: nil, createdAt: time, updatedAt: time, deliveredAt: nil)
    }

    @Test func finalDeliveriesGoThenEventsWithNoDeliveryLeft() async throws {
        let world = world()
        let start = world.clock.date
        for id in ["evt_done", "evt_pending", "evt_none"] {
            await world.webhookEvents.add(
                WebhookEvent(
                    id: id, tenantId: world.tenant, type: "payment.succeeded", objectId: "pay_1", payload: Data(),
                    createdAt: start))
        }
        let finals: [(String, WebhookDelivery.Status)] = [
            ("whd_ok", .succeeded), ("whd_dead", .dead), ("whd_off", .canceled),
        ]
        for (id, status) in finals {
            await world.webhookEvents.add(delivery(id, event: "evt_done", status, at: start), tenant: world.tenant)
        }
        await world.webhookEvents.add(
            delivery("whd_retrying", event: "evt_pending", .pending, at: start), tenant: world.tenant)
        world.clock.advance(720 * Self.hour + 1)
        await world.janitor.runOnce()
        #expect(await world.webhookEvents.allDeliveries.map(\.id) == ["whd_retrying"])
        // Deliveries are looked at before events, so an event goes in the look that deletes its last delivery.
        #expect(await world.webhookEvents.allEvents.map(\.id) == ["evt_pending"], "its delivery is not final")
    }

    @Test func handledNotificationsGoUnlessTheyConcernAnOpenPayment() async throws {
        let world = world()
        let open = try await world.create(.authorized(), try world.request(capture: .manual)).payment
        let done = try await world.create(.succeeded()).payment
        #expect(!open.status.isFinal && done.status.isFinal)
        let log = world.notifications
        func record(_ name: String) async throws -> Int64 {
            let recorded = try await log.recordVerified(
                accountId: world.accounts[0], tenantId: world.tenant, headers: [], body: Data(name.utf8),
                signedContent: Data(name.utf8), at: world.clock.date)
            guard case .toApply(let id) = recorded else { throw RecordedTwice() }
            return id
        }
        let rejection = ReportRejection(code: ReportRejection.amountOutOfRange, message: "too much")
        try await log.markApplied(id: try await record("applied"), tenantId: world.tenant, at: world.clock.date)
        _ = try await record("not handled")
        try await log.markRejected(
            id: try await record("rejected open"), tenantId: world.tenant, paymentId: open.id, rejection: rejection,
            at: world.clock.date)
        try await log.markRejected(
            id: try await record("rejected final"), tenantId: world.tenant, paymentId: done.id, rejection: rejection,
            at: world.clock.date)
        world.clock.advance(2_160 * Self.hour - 1)
        await world.janitor.runOnce()
        #expect(await log.entries.count == 4, "not 90 days old yet")
        world.clock.advance(Self.interval)
        await world.janitor.runOnce()
        let kept = await log.entries.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(kept == ["not handled", "rejected open"])
    }

    @Test func auditEntriesGoAfterTheirRetention() async throws {
        var policy = PlatformPolicy()
        policy.retention.auditEntriesHours = 48
        let world = DomainWorld(policy: policy)
        _ = try await world.tenants.createTenant(name: "old", actor: "operator")
        world.clock.advance(24 * Self.hour)
        _ = try await world.tenants.createTenant(name: "new", actor: "operator")
        world.clock.advance(24 * Self.hour + 1)
        await world.janitor.runOnce()
        #expect(await world.tenants.auditEntries.map(\.target) == [try await world.tenants.tenants()[1].id.uuidString])
    }
}
