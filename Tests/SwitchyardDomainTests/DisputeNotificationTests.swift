import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// A provider's dispute notification, through the payment service, to the stored dispute, its events and
/// the payment's refundable remainder.
struct DisputeNotificationTests {
    func notify(_ world: DomainWorld, _ log: InMemoryNotificationLog, body: String) async throws -> NotificationAnswer {
        try await world.service.handleNotification(
            accountId: world.accounts[0],
            request: NotificationRequest(method: "POST", path: "/notifications", headers: [], body: Data(body.utf8)),
            log: log)
    }

    func chargeback(_ kind: DisputeEvent.Kind, reference: String?, amount: Int64 = 600) -> DisputeEvent {
        DisputeEvent(
            kind: kind, providerDisputeId: "CB-1", reference: reference, stage: kind == .opened ? .chargeback : nil,
            providerStatus: "\(kind)", amount: amount, currency: "EUR", reasonCode: "4837", reason: "fraudulent")
    }

    @Test func aChargebackHoldsItsFundsUntilWonAndBlocksAFullRefund() async throws {
        let world = DomainWorld()
        let log = InMemoryNotificationLog()
        let record = try await world.create(.succeeded())
        let attempt = try #require(record.lastAttempt)
        world.gateway.scriptDisputeNotification(chargeback(.opened, reference: attempt.id))
        _ = try await notify(world, log, body: "opened")
        let page = try await world.service.disputes.list(
            tenant: world.tenant, filter: DisputeFilter(paymentId: record.payment.id), page: PageRequest())
        let dispute = try #require(page.items.first)
        #expect(dispute.status == .needsResponse)
        #expect(
            try await world.service.get(tenant: world.tenant, paymentId: record.payment.id).payment.amountDisputed
                == 600)
        #expect(world.disputes.announced.map(\.type) == ["dispute.created", "dispute.funds_withdrawn"])

        // A full refund would return the disputed funds a second time.
        await expectCoreError(.refundExceedsUndisputed) {
            _ = try await world.service.refund(
                tenant: world.tenant, paymentId: record.payment.id, amount: 1_000, reason: nil)
        }

        // The same notification resent changes nothing; the decision gives the funds back.
        world.gateway.scriptDisputeNotification(chargeback(.opened, reference: attempt.id))
        _ = try await notify(world, log, body: "opened")
        world.gateway.scriptDisputeNotification(chargeback(.won, reference: attempt.id))
        _ = try await notify(world, log, body: "won")
        #expect(try await world.service.disputes.get(tenant: world.tenant, id: dispute.id).status == .won)
        #expect(
            try await world.service.get(tenant: world.tenant, paymentId: record.payment.id).payment.amountDisputed == 0)
        #expect(
            world.disputes.announced.map(\.type) == [
                "dispute.created", "dispute.funds_withdrawn", "dispute.closed", "dispute.funds_reinstated",
            ])
    }

    @Test func aDisputeOfAnUnknownPaymentIsKeptForReview() async throws {
        let world = DomainWorld()
        world.gateway.scriptDisputeNotification(chargeback(.opened, reference: "att_unknown"))
        let answer = try await notify(world, InMemoryNotificationLog(), body: "opened")
        guard case .acknowledged = answer else {
            Issue.record("the notification was not acknowledged: \(answer)")
            return
        }
        let review = try await world.service.disputes.list(
            tenant: world.tenant, filter: DisputeFilter(needsReview: true), page: PageRequest())
        #expect(review.items.count == 1)
        #expect(review.items.first?.paymentId == nil)
    }
}
