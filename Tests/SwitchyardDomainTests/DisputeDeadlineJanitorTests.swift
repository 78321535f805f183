import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// The janitor and a dispute's evidence deadline: reminders at the policy's horizons, then the dispute
/// closed as lost once the grace after its deadline has passed, with its funds kept withdrawn.
struct DisputeDeadlineJanitorTests {
    @Test func remindersThenLostPastTheDeadline() async throws {
        let world = DomainWorld()
        let record = try await world.create(.succeeded())
        let attempt = try #require(record.lastAttempt)
        let due = world.clock.date.addingTimeInterval(80 * 3600)
        world.gateway.scriptDisputeNotification(
            DisputeEvent(
                kind: .opened, providerDisputeId: "CB-9", reference: attempt.id, stage: .chargeback,
                providerStatus: "Notification of Claim", amount: 1_000, currency: "EUR", evidenceDueBy: due))
        _ = try await world.service.handleNotification(
            accountId: world.accounts[0],
            request: NotificationRequest(method: "POST", path: "/n", headers: [], body: Data("cb".utf8)),
            log: InMemoryNotificationLog())
        func reminders() -> Int { world.disputes.announced.filter { $0.type == "dispute.evidence_due_soon" }.count }

        await world.janitor.runOnce()
        #expect(reminders() == 0)
        world.clock.advance(9 * 3600)  // 71 h before the deadline
        await world.janitor.runOnce()
        await world.janitor.runOnce()
        #expect(reminders() == 1)
        world.clock.advance(48 * 3600)  // 23 h before
        await world.janitor.runOnce()
        #expect(reminders() == 2)
        world.clock.advance(24 * 3600)  // 1 h past: within the grace
        await world.janitor.runOnce()
        let dispute = try #require(
            try await world.service.disputes.list(tenant: world.tenant, filter: DisputeFilter(), page: PageRequest())
                .items.first)
        #expect(dispute.status == .needsResponse)
        #expect(dispute.isPastDue(at: world.clock.date))
        world.clock.advance(24 * 3600)
        await world.janitor.runOnce()
        let closed = try await world.service.disputes.get(tenant: world.tenant, id: dispute.id)
        #expect(closed.status == .lost)
        #expect(closed.funds == .withdrawn)
        #expect(world.disputes.announced.last?.type == "dispute.closed")
        #expect(
            try await world.service.get(tenant: world.tenant, paymentId: record.payment.id).payment.amountDisputed
                == 1_000)
    }
}
