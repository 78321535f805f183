import Foundation
import ProviderSandbox
import SwitchyardCore
import Testing

/// A payment waiting for the customer's app whose provider notification is lost is synced by the janitor
/// once its client session is past half its life, long before the session ends.
@Suite(.serialized)
struct SessionHalfLifeEndToEndTests {
    /// The janitor looks only when the test says, and overdue notifications are not asked about before the
    /// session sweeps (they are the last resort these tests check).
    static let sessionSweepsOnly: @Sendable (inout PlatformPolicy) -> Void = {
        $0.janitor.pollMs = 600_000
        $0.overdueNotifications.floorSeconds = 86_400
        $0.overdueNotifications.capSeconds = 86_400
    }

    /// With the default policy an account with too few observed notifications waits `cap_seconds` (60 s):
    /// a lost notification is replaced by an inquiry a minute after the payment was created.
    @Test func aLostCitconNotificationIsReplacedByAnInquiryOnceOverdue() async throws {
        let clock = TestClock()
        try await TestStack.with(policy: { $0.janitor.pollMs = 600_000 }, clock: clock) { stack in
            let m = try await stack.merchant()
            let flows = CitconEndToEndTests()
            let created = try await flows.payment(stack, m)
            let id = try #require(created["id"] as? String)
            await stack.sandbox.citcon.faults.add([SandboxFault(kind: .dropNotification, count: 1)])
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(created), method: "alipay")

            clock.advance(by: 30)
            await stack.runtime.janitor.runOnce()
            let early = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(early["status"] as? String == "requires_action", "not overdue yet: \(early)")
            clock.advance(by: 31)
            await stack.runtime.janitor.runOnce()
            let settled = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(settled["status"] as? String == "succeeded", "\(settled)")
            #expect(await stack.sandbox.citcon.ledger().filter { $0.kind == .charge }.count == 1)
        }
    }

    @Test func aLostCitconNotificationIsRecoveredAtHalfTheSessionLife() async throws {
        let clock = TestClock()
        // This test drives the janitor (the background one looks once at start).
        try await TestStack.with(policy: Self.sessionSweepsOnly, clock: clock) { stack in
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

    /// The sweep at a session's expiry must not be the last look: when it cannot learn the outcome (the
    /// provider's answer fails, or the provider still calls the charge open because its expiry comes a
    /// moment after ours), a payment the shopper paid, its notification lost, would wait for ever.
    @Test func aPaymentTheExpirySweepCouldNotSettleIsAskedAgain() async throws {
        let clock = TestClock()
        try await TestStack.with(policy: Self.sessionSweepsOnly, clock: clock) { stack in
            let m = try await stack.merchant()
            let flows = CitconEndToEndTests()
            let created = try await flows.payment(stack, m)
            let id = try #require(created["id"] as? String)
            let session = try #require(created["session"] as? [String: Any])
            let expiresAt = try #require(ISO8601DateFormatter().date(from: session["expires_at"] as? String ?? ""))

            // The shopper pays, but the provider's notification is lost.
            await stack.sandbox.citcon.faults.add([SandboxFault(kind: .dropNotification, count: 1)])
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(created), method: "alipay")

            // Past the expiry, the sweep asks the provider, whose answer fails.
            clock.advance(by: expiresAt.timeIntervalSince(clock.now()) + 1)
            await stack.sandbox.citcon.faults.add([SandboxFault(kind: .http500, count: 1)])
            await stack.runtime.janitor.runOnce()
            let swept = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(swept["status"] as? String == "requires_action", "\(swept)")

            // Within the janitor's first delay nothing is asked again; after it, the sweep asks again.
            await stack.runtime.janitor.runOnce()
            let early = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(early["status"] as? String == "requires_action", "\(early)")
            clock.advance(by: Double(PlatformPolicy.Janitor().scheduleMs.first ?? 5_000) / 1000 + 1)
            await stack.runtime.janitor.runOnce()
            let settled = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(settled["status"] as? String == "succeeded", "\(settled)")
            let ledger = await stack.sandbox.citcon.ledger()
            #expect(ledger.filter { $0.kind == .charge }.count == 1)
        }
    }
}
