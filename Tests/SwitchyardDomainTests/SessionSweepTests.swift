import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// Payments waiting for the customer's app are synced at half their session's life and at its expiry,
/// once each, and again while the janitor's horizon lasts; one still waiting past it is flagged for review.
struct SessionSweepTests {
    func waiting(_ world: DomainWorld, expiresIn seconds: TimeInterval) async throws -> String {
        let action = NextAction(
            type: "app", data: ["token": .string("t")], expiresAt: world.clock.date.addingTimeInterval(seconds))
        return try await world.create(Outcome(kind: .pending, providerPaymentId: "p", nextAction: action)).payment.id
    }

    @Test func syncedOnceAtHalfLifeAndOnceAtExpiry() async throws {
        let world = DomainWorld()
        let id = try await waiting(world, expiresIn: 600)
        world.clock.advance(100)
        #expect(await world.service.sweepSessions(limit: 10) == 0)
        world.clock.advance(201)
        world.gateway.script(.sync, Outcome(kind: .pending), Outcome(kind: .canceled))
        #expect(await world.service.sweepSessions(limit: 10) == 1)
        #expect(await world.service.sweepSessions(limit: 10) == 0)
        #expect(world.gateway.calls(.sync).count == 1)
        world.clock.advance(300)
        #expect(await world.service.sweepSessions(limit: 10) == 1)
        #expect(world.gateway.calls(.sync).count == 2)
        #expect(try await world.service.get(tenant: world.tenant, paymentId: id).payment.status == .canceled)
        world.clock.advance(3_600)
        #expect(await world.service.sweepSessions(limit: 10) == 0)
        #expect(world.gateway.calls(.authorize).count == 1)
    }

    @Test func stillWaitingAtTheHorizonIsFlaggedForReviewOnceAndStaysOpen() async throws {
        var policy = PlatformPolicy()
        policy.janitor.scheduleMs = [5_000]
        policy.janitor.horizonMs = 60_000
        let world = DomainWorld(accounts: 1, policy: policy)
        let id = try await waiting(world, expiresIn: 100)
        func flagged() async throws -> [String] {
            try await world.payments.paymentsForReview(tenant: world.tenant, limit: 10).map(\.id)
        }
        world.clock.advance(101)
        world.gateway.script(.sync, Outcome(kind: .pending), Outcome(kind: .pending), Outcome(kind: .pending))
        #expect(await world.service.sweepSessions(limit: 10) == 1)
        world.clock.advance(58)
        #expect(await world.service.sweepSessions(limit: 10) == 1, "retried within the horizon")
        #expect(try await flagged().isEmpty, "not flagged before the horizon")
        world.clock.advance(1)
        #expect(await world.service.sweepSessions(limit: 10) == 1, "a last look at the horizon")
        #expect(world.gateway.calls(.sync).count == 3)
        var payment = try await world.service.get(tenant: world.tenant, paymentId: id).payment
        #expect(payment.status == .requiresAction)
        #expect(payment.resolution?.reviewRequired == true)
        #expect(payment.resolution?.since == world.clock.date)
        #expect(try await flagged() == [id])
        world.clock.advance(3_600)
        #expect(await world.service.sweepSessions(limit: 10) == 0, "flagged once, never swept again")
        #expect(world.gateway.calls(.sync).count == 3)

        world.gateway.script(.sync, Outcome(kind: .pending))
        _ = try await world.service.sync(tenant: world.tenant, paymentId: id)
        #expect(try await flagged() == [id], "a sync still pending clears nothing")
        let attempt = try #require(try await world.service.get(tenant: world.tenant, paymentId: id).lastAttempt)
        world.gateway.scriptNotification(
            NotificationEvent(
                subject: .payment, reference: attempt.id, providerPaymentId: "p",
                outcome: Outcome(kind: .succeeded, providerPaymentId: "p")))
        _ = try await world.service.handleNotification(
            accountId: world.accounts[0],
            request: NotificationRequest(method: "POST", path: "/notifications", headers: [], body: Data("n".utf8)),
            log: InMemoryNotificationLog())
        payment = try await world.service.get(tenant: world.tenant, paymentId: id).payment
        #expect(payment.status == .succeeded)
        #expect(payment.resolution == nil)
        #expect(try await flagged().isEmpty, "settled: nothing left to review")
    }

    @Test func aSessionFirstSweptPastTheHorizonIsSyncedThenFlagged() async throws {
        var policy = PlatformPolicy()
        policy.janitor.horizonMs = 60_000
        let world = DomainWorld(accounts: 1, policy: policy)
        let id = try await waiting(world, expiresIn: 100)
        world.clock.advance(1_000)
        world.gateway.script(.sync, Outcome(kind: .canceled))
        #expect(await world.service.sweepSessions(limit: 10) == 1)
        let payment = try await world.service.get(tenant: world.tenant, paymentId: id).payment
        #expect(payment.status == .canceled, "the last sync settles it")
        #expect(payment.resolution == nil, "a settled payment is not flagged")
        #expect(try await world.payments.paymentsForReview(tenant: nil, limit: 10).isEmpty)
    }

    @Test func anExpiredSessionIsRefusedToTheApp() async throws {
        let world = DomainWorld()
        let id = try await waiting(world, expiresIn: 60)
        _ = try await world.service.session(tenant: world.tenant, paymentId: id)
        world.clock.advance(61)
        await expectCoreError(.sessionExpired) {
            _ = try await world.service.session(tenant: world.tenant, paymentId: id)
        }
    }
}
