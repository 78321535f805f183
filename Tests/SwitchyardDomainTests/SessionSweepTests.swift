import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// Payments waiting for the customer's app are synced at half their session's life and at its expiry,
/// once each.
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
