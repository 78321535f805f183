import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// An `unknown` payment is settled by the janitor's syncs, on its schedule, and is never authorized again.
struct JanitorTests {
    @Test func unknownIsSettledBySyncNeverBySecondAuthorize() async throws {
        let world = DomainWorld()
        let created = try await world.create(.unknown("timeout"))
        let id = created.payment.id
        // Not due before the schedule's first delay.
        #expect(await world.janitor.runOnce() == 0)
        #expect(world.gateway.calls(.sync).isEmpty)
        world.clock.advance(5)
        world.gateway.script(.sync, .succeeded())
        #expect(await world.janitor.runOnce() == 1)
        let record = try await world.service.get(tenant: world.tenant, paymentId: id)
        #expect(record.payment.status == .succeeded)
        #expect(record.payment.resolution == nil)
        #expect(world.gateway.calls(.sync).count == 1)
        #expect(world.gateway.calls(.authorize).count == 1)
        // Settled: nothing more to do.
        world.clock.advance(3_600)
        _ = await world.janitor.runOnce()
        #expect(world.gateway.calls(.sync).count == 1)
    }

    @Test func stillUnknownIsScheduledThenFlaggedAtTheHorizon() async throws {
        var policy = PlatformPolicy()
        policy.janitor.scheduleMs = [5_000, 30_000]
        policy.janitor.horizonMs = 60_000
        let world = DomainWorld(policy: policy)
        let id = try await world.create(.unknown("timeout")).payment.id
        world.clock.advance(5)
        world.gateway.script(.sync, .unknown("still"), .unknown("still"), .unknown("still"))
        _ = await world.janitor.runOnce()
        var payment = try await world.service.get(tenant: world.tenant, paymentId: id).payment
        #expect(payment.resolution?.syncs == 1)
        let next = try #require(payment.resolution?.nextSyncAt)
        #expect(next > world.clock.date)
        // Not synced again before its next sync is due.
        _ = await world.janitor.runOnce()
        #expect(world.gateway.calls(.sync).count == 1)
        world.clock.set(next)
        _ = await world.janitor.runOnce()
        #expect(world.gateway.calls(.sync).count == 2)
        world.clock.advance(60)
        _ = await world.janitor.runOnce()
        payment = try await world.service.get(tenant: world.tenant, paymentId: id).payment
        #expect(payment.status == .unknown)
        #expect(payment.resolution?.reviewRequired == true)
        #expect(try await world.payments.paymentsForReview(tenant: world.tenant, limit: 10).map(\.id) == [id])
        // A payment under review is no longer synced by the janitor.
        world.clock.advance(3_600)
        _ = await world.janitor.runOnce()
        #expect(world.gateway.calls(.sync).count == 3)
        #expect(world.gateway.calls(.authorize).count == 1)
    }

    @Test func staleProcessingWithoutAttemptFailsWithoutAnyCall() async throws {
        let world = DomainWorld()
        try await world.payments.commit(PaymentChanges(payment: world.storedPayment("pay_stale")))
        world.clock.advance(10)
        _ = await world.janitor.runOnce()
        #expect(world.payments.storedPayment("pay_stale")?.status == .processing)
        world.clock.advance(30)
        _ = await world.janitor.runOnce()
        let stored = try #require(world.payments.storedPayment("pay_stale"))
        #expect(stored.status == .failed)
        #expect(stored.failureCode == StaleProcessing.notSentCode)
        #expect(world.gateway.calls.isEmpty)
    }

    @Test func staleProcessingWithAnOpenAttemptIsSyncedNotRetried() async throws {
        let world = DomainWorld()
        var payment = world.storedPayment("pay_open")
        payment.providerAccountId = world.accounts[0]
        let attempt = Attempt(
            id: "att_open", paymentId: payment.id, tenantId: world.tenant, accountId: world.accounts[0],
            pluginId: "scripted", sequence: 1, reason: "first", startedAt: world.clock.date)
        try await world.payments.commit(PaymentChanges(payment: payment, attempts: [attempt]))
        world.clock.advance(31)
        world.gateway.script(.sync, .declined(code: "refused", message: "no"))
        _ = await world.janitor.runOnce()
        let stored = try #require(world.payments.storedPayment("pay_open"))
        #expect(stored.status == .failed)
        #expect(stored.failureCode == "refused")
        #expect(world.gateway.calls(.sync).map(\.reference) == ["att_open"])
        #expect(world.gateway.calls(.authorize).isEmpty)
    }

    @Test func aRefundStillUnknownAtTheHorizonIsGivenUpThroughItsMachine() async throws {
        var policy = PlatformPolicy()
        policy.janitor.scheduleMs = [5_000]
        policy.janitor.horizonMs = 60_000
        let world = DomainWorld(policy: policy)
        let id = try await world.create(.succeeded()).payment.id
        world.gateway.script(.refund, .unknown("timeout"))
        let refund = try await world.service.refund(tenant: world.tenant, paymentId: id, amount: 400, reason: nil)
        #expect(refund.status == .unknown)
        world.gateway.script(.syncRefund, .unknown("busy"), .unknown("busy"))
        // Before the horizon the inquiry is asked and the refund is not listed.
        world.clock.advance(31)
        _ = await world.janitor.runOnce()
        #expect(world.gateway.calls(.syncRefund).count == 1)
        #expect(world.payments.reviewReason(of: refund.id) == nil)
        // Past the horizon the janitor gives up: listed for review, still unknown, never asked again.
        world.clock.advance(60)
        _ = await world.janitor.runOnce()
        #expect(world.gateway.calls(.syncRefund).count == 2)
        #expect(world.payments.reviewReason(of: refund.id) == "unresolved_at_horizon")
        let stored = try await world.service.get(tenant: world.tenant, paymentId: id).refunds.first {
            $0.id == refund.id
        }
        #expect(stored?.status == .unknown)
        #expect(stored == refund, "giving up changes nothing in the refund but its review listing")
        world.clock.advance(3_600)
        _ = await world.janitor.runOnce()
        #expect(world.gateway.calls(.syncRefund).count == 2)
        #expect(world.gateway.calls(.refund).count == 1)
    }
}
