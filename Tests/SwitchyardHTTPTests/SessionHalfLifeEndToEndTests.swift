import Foundation
import ProviderSandbox
import Testing

/// A payment waiting for the customer's app whose provider notification is lost is synced by the janitor
/// once its client session is past half its life, long before the session ends.
@Suite(.serialized)
struct SessionHalfLifeEndToEndTests {
    @Test func aLostCitconNotificationIsRecoveredAtHalfTheSessionLife() async throws {
        let clock = TestClock()
        // This test drives the janitor (the background one looks once at start).
        try await TestStack.with(policy: { $0.janitor.pollMs = 600_000 }, clock: clock) { stack in
            let m = try await stack.merchant()
            let flows = CitconEndToEndTests()
            let created = try await flows.payment(stack, m)
            let id = try #require(created["id"] as? String)
            let session = try #require(created["session"] as? [String: Any])
            let expiresAt = try #require(ISO8601DateFormatter().date(from: session["expires_at"] as? String ?? ""))
            let life = expiresAt.timeIntervalSince(clock.now())
            #expect(life > 60, "a session long enough to have a half-life: \(life) s")

            // The shopper pays, but the provider's notification is lost.
            await stack.sandbox.citcon.faults.add([SandboxFault(kind: .dropNotification, count: 1)])
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(created), method: "alipay")

            // Before half its life the session is left to the app and the notification.
            clock.advance(by: life / 4)
            await stack.runtime.janitor.runOnce()
            let early = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(early["status"] as? String == "requires_action", "\(early)")

            // Past half its life, before the expiry, one janitor pass asks the provider.
            clock.advance(by: life / 2)
            #expect(clock.now() < expiresAt)
            await stack.runtime.janitor.runOnce()
            let settled = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(settled["status"] as? String == "succeeded", "\(settled)")
            let ledger = await stack.sandbox.citcon.ledger()
            #expect(ledger.filter { $0.kind == .charge }.count == 1)
        }
    }
}
