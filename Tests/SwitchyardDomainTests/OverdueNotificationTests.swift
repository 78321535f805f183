import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// A payment waiting for the customer's app whose notification never comes is synced by the janitor once
/// it is overdue against its account's threshold, not at its session's half-life.
struct OverdueNotificationTests {
    @Test func aLostNotificationIsReplacedByAnInquiryAtTheThreshold() async throws {
        let world = DomainWorld()
        let waiting = Outcome(
            kind: .pending, providerPaymentId: "psp-w",
            nextAction: NextAction(
                type: "redirect", data: [:], expiresAt: world.clock.date.addingTimeInterval(1_800)))
        let record = try await world.create(waiting)
        #expect(record.payment.status == .requiresAction)
        func syncs() -> Int { world.gateway.calls.filter { $0.flow == .sync }.count }

        world.clock.advance(5)
        await world.janitor.runOnce()
        #expect(syncs() == 0, "not overdue yet")
        // The customer paid; the provider's notification is lost. With no delays observed, the account's
        // threshold is the cap (60 s).
        world.gateway.script(.sync, Outcome.succeeded("psp-w"))
        world.clock.advance(56)
        await world.janitor.runOnce()
        #expect(syncs() == 1)
        let settled = try await world.service.get(tenant: world.tenant, paymentId: record.payment.id).payment
        #expect(settled.status == .succeeded)
    }

    @Test func aNotificationTeachesTheAccountItsDelay() async throws {
        let world = DomainWorld()
        for _ in 0..<2 {
            let waiting = Outcome(kind: .pending, providerPaymentId: "psp-\(UUID().uuidString.prefix(4))")
            let record = try await world.create(waiting)
            world.clock.advance(3)
            world.gateway.scriptNotification(
                NotificationEvent(
                    subject: .payment, reference: record.lastAttempt?.id, providerPaymentId: nil,
                    outcome: Outcome.succeeded()))
            _ = try await world.service.handleNotification(
                accountId: world.accounts[0],
                request: NotificationRequest(
                    method: "POST", path: "/n", headers: [], body: Data(UUID().uuidString.utf8)),
                log: InMemoryNotificationLog())
        }
        let delays = try await world.payments.observedNotificationDelays(
            since: .distantPast, percentile: 100, minSamples: 2)
        #expect(delays[world.accounts[0]] == 3)
        #expect(try await world.payments.pruneNotificationDelays(before: .distantFuture, limit: 1) == 1)
        #expect(
            try await world.payments.observedNotificationDelays(since: .distantPast, percentile: 100, minSamples: 2)
                == [:])
    }
}
