import Foundation
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

struct WebhookEventServiceTests {
    let tenant = UUID()
    let clock = ManualClock()
    let repository: InMemoryWebhookEvents
    let service: WebhookEventService

    init() {
        var policy = PlatformPolicy()
        policy.webhooks.replayLimit = 2
        policy.webhooks.replayWindowMs = 60_000
        repository = InMemoryWebhookEvents(now: clock.now)
        service = WebhookEventService(events: repository, policy: PolicyCenter(policy))
    }

    func event(_ id: String, tenant: UUID? = nil, type: String = "payment.succeeded", second: Double) -> WebhookEvent {
        WebhookEvent(
            id: id, tenantId: tenant ?? self.tenant, type: type, objectId: "pay_\(id)", payload: Data("{}".utf8),
            createdAt: Date(timeIntervalSince1970: 1_700_000_000 + second))
    }

    @Test func aPageOfEventsSaysWhetherMoreFollowAndSeesOnlyItsTenant() async throws {
        for index in 0..<3 { await repository.add(event("evt_\(index)", second: Double(index))) }
        await repository.add(event("evt_other", tenant: UUID(), second: 10))
        let first = try await service.events(tenant: tenant, type: nil, objectId: nil, page: PageRequest(limit: 2))
        #expect(first.items.map(\.id) == ["evt_2", "evt_1"])
        #expect(first.hasMore)
        let rest = try await service.events(
            tenant: tenant, type: nil, objectId: nil, page: PageRequest(limit: 2, cursor: .after("evt_1")))
        #expect(rest.items.map(\.id) == ["evt_0"])
        #expect(!rest.hasMore)
        let back = try await service.events(
            tenant: tenant, type: nil, objectId: nil, page: PageRequest(limit: 1, cursor: .before("evt_0")))
        #expect(back.items.map(\.id) == ["evt_1"])
        #expect(back.hasMore, "evt_2 is newer still")
        await expectCoreError(.invalidParameter) {
            _ = try await service.events(
                tenant: tenant, type: nil, objectId: nil, page: PageRequest(cursor: .after("evt_other")))
        }
    }

    @Test func anUnknownEventIsNotFoundEvenForItsDeliveries() async throws {
        await repository.add(event("evt_other", tenant: UUID(), second: 0))
        await expectCoreError(.notFound) { _ = try await service.event(tenant: tenant, id: "evt_other") }
        await expectCoreError(.notFound) { _ = try await service.deliveries(tenant: tenant, eventId: "evt_other") }
    }

    @Test func aReplayWithoutAnEndpointIsAConflict() async throws {
        await repository.add(event("evt_1", second: 0))
        await expectCoreError(.noWebhookEndpoint) {
            _ = try await service.replay(tenant: tenant, eventId: "evt_1", endpointId: nil, actor: "k")
        }
    }

    @Test func replaysStopAtTheQuotaUntilTheWindowMovesOn() async throws {
        await repository.add(event("evt_1", second: 0))
        await repository.subscribe(tenant: tenant, endpointId: "we_1")
        for _ in 0..<2 {
            guard
                case .delivered(let made) = try await service.replay(
                    tenant: tenant, eventId: "evt_1", endpointId: nil, actor: "k")
            else { Issue.record("refused within the quota"); return }
            #expect(made.map(\.endpointId) == ["we_1"])
        }
        clock.advance(20)
        #expect(
            try await service.replay(tenant: tenant, eventId: "evt_1", endpointId: nil, actor: "k")
                == .quotaExceeded(retryAfterSeconds: 40))
        clock.advance(41)
        guard case .delivered = try await service.replay(tenant: tenant, eventId: "evt_1", endpointId: nil, actor: "k")
        else { Issue.record("refused after the window"); return }
        #expect(try await service.deliveries(tenant: tenant, eventId: "evt_1").items.count == 3)
    }
}
