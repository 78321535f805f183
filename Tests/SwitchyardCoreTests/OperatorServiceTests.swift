import Foundation
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

struct OperatorServiceTests {
    let tenants = InMemoryTenantRepository()
    let payments = InMemoryPaymentSearch()
    let events = InMemoryWebhookEvents()
    let service: OperatorService

    init() {
        service = OperatorService(tenants: tenants, payments: payments, events: events)
    }

    func payment(_ id: String, tenant: UUID, reference: String, second: Double) -> Payment {
        Payment(
            id: id, tenantId: tenant, amount: 100, currency: "USD", country: "US", method: "alipay",
            reference: reference, captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
            status: .succeeded, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + second))
    }

    @Test func theSearchReadsEachTenantsHitsInOneBatchNewestFirst() async throws {
        let a = try await tenants.createTenant(name: "A", actor: "operator")
        let b = try await tenants.createTenant(name: "B", actor: "operator")
        for (index, tenant) in [a, b, a, a, b].enumerated() {
            await payments.add(payment("pay_\(index)", tenant: tenant.id, reference: "order-1", second: Double(index)))
        }
        await payments.add(payment("pay_x", tenant: a.id, reference: "order-2", second: 9))
        let hits = try await service.searchPayments(id: nil, reference: "order-1")
        #expect(hits.map(\.record.payment.id) == ["pay_4", "pay_3", "pay_2", "pay_1", "pay_0"])
        #expect(hits.map(\.tenantName) == ["B", "A", "A", "B", "A"])
        #expect(await payments.recordReads == 2)
    }

    @Test func deliveriesOfAnUnknownTenantAreNotFound() async throws {
        await expectCoreError(.notFound) { _ = try await service.deliveries(status: .dead, tenant: UUID(), limit: 5) }
        await expectCoreError(.notFound) { _ = try await service.requireTenant(UUID()) }
    }

    @Test func deliveriesAreMergedAcrossTenantsNewestFirstUpToTheLimit() async throws {
        let a = try await tenants.createTenant(name: "A", actor: "operator")
        let b = try await tenants.createTenant(name: "B", actor: "operator")
        for (index, tenant) in [a, b, a].enumerated() {
            let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
            await events.add(
                WebhookDelivery(
                    id: "whd_\(index)", eventId: "evt_\(index)", endpointId: "we", status: .dead, attemptCount: 8,
                    nextAttemptAt: nil, lastStatusCode: 500, lastError: nil, replayOf: nil, createdAt: time,
                    updatedAt: time, deliveredAt: nil),
                tenant: tenant.id)
        }
        let all = try await service.deliveries(status: .dead, tenant: nil, limit: 2)
        #expect(all.map(\.delivery.id) == ["whd_2", "whd_1"])
        #expect(all.map(\.tenant.name) == ["A", "B"])
        let onlyB = try await service.deliveries(status: .dead, tenant: b.id, limit: 5)
        #expect(onlyB.map(\.delivery.id) == ["whd_1"])
        #expect(try await service.deliveries(status: .pending, tenant: nil, limit: 5).isEmpty)
    }
}
