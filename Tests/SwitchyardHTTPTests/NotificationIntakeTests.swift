import Foundation
import ProviderSandbox
import SwitchyardStore
import Testing

/// Unverifiable notifications cost the platform almost nothing: refused at once, at most one background
/// sync per account per interval, stored within a cap, deleted after the retention.
@Suite(.serialized)
struct NotificationIntakeTests {
    static let counted = 1_000

    /// Counts the sandbox's transaction inquiries (each sync of a Citcon payment makes one) by a
    /// zero-latency fault whose remaining count goes down by one per matching request.
    static func countInquiries(_ stack: TestStack) async {
        await stack.sandbox.citcon.faults.add([
            SandboxFault(kind: .latency, method: "GET", pathPrefix: "/v1/transactions", count: counted, latencyMs: 0)
        ])
    }

    static func inquiries(_ stack: TestStack) async -> Int {
        let rule = await stack.sandbox.citcon.faults.activeRules.first { $0.pathPrefix == "/v1/transactions" }
        return counted - (rule?.count ?? 0)
    }

    static func forged(_ n: Int) -> Data {
        Data(
            "id=\(n)&transaction_type=charge&reference=x&amount=1&currency=USD&status=fail&sign=\(String(repeating: "0", count: 64))"
                .utf8)
    }

    static func post(_ stack: TestStack, _ m: TestStack.Merchant, _ body: Data) async throws -> Int {
        try await stack.send(
            .POST, "/notifications/\(m.accountId)", raw: body,
            headers: ["Content-Type": "application/x-www-form-urlencoded"]
        ).status
    }

    static func count(_ stack: TestStack, _ sql: String, _ account: String) async throws -> Int {
        try await stack.runtime.pool.withConnection { c in
            Int(try await c.query(sql, [.text(account)]).rows.first?.int64("n") ?? -1)
        }
    }

    @Test func fiftyForgedNotificationsAreRefusedAtOnceAndCauseOneSyncRound() async throws {
        try await TestStack.with(policy: { $0.notifications.unverifiedStoredPerHour = 10 }) { stack in
            let m = try await stack.merchant()
            let flows = CitconEndToEndTests()
            // Two open payments; the shopper pays both, but the provider's notifications are lost.
            var ids: [String] = []
            for _ in 0..<2 {
                let created = try await flows.payment(stack, m)
                ids.append(try #require(created["id"] as? String))
                await stack.sandbox.citcon.faults.add([SandboxFault(kind: .dropNotification, count: 1)])
                _ = try await stack.sandbox.citcon.confirm(
                    chargeToken: try flows.chargeToken(created), method: "alipay")
            }
            await Self.countInquiries(stack)

            let started = Date()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 0..<50 {
                    group.addTask { try await Self.post(stack, m, Self.forged(n)) }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 50 && statuses.allSatisfy { $0 == 401 }, "\(statuses)")
            #expect(Date().timeIntervalSince(started) < 30, "answered without waiting for providers")

            // One background sync round learns the real outcome of both payments.
            for id in ids {
                let after = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
                #expect(after["status"] as? String == "succeeded")
            }
            #expect(await Self.inquiries(stack) <= ids.count, "one sync per open payment, not one per post")

            let stored = try await Self.count(
                stack, "SELECT count(*) AS n FROM notifications WHERE account_id = $1::uuid AND NOT verified",
                m.accountId)
            #expect(stored == 10, "stored up to the hourly cap")
            let dropped = try await Self.count(
                stack, "SELECT unverified_dropped AS n FROM notification_intake WHERE account_id = $1::uuid",
                m.accountId)
            #expect(dropped == 40, "the rest only counted")

            // More forged posts within the interval cause no further provider call.
            for n in 50..<60 { #expect(try await Self.post(stack, m, Self.forged(n)) == 401) }
            #expect(await Self.inquiries(stack) <= ids.count)
        }
    }

    @Test func unverifiedNotificationsExpireAfterTheRetention() async throws {
        let clock = TestClock()
        try await TestStack.with(policy: { $0.notifications.unverifiedRetentionHours = 24 }, clock: clock) { stack in
            let m = try await stack.merchant()
            for n in 0..<3 { #expect(try await Self.post(stack, m, Self.forged(n)) == 401) }
            let sql = "SELECT count(*) AS n FROM notifications WHERE account_id = $1::uuid AND NOT verified"
            #expect(try await Self.count(stack, sql, m.accountId) == 3)
            await stack.runtime.janitor.runOnce()
            #expect(try await Self.count(stack, sql, m.accountId) == 3, "kept within the retention")
            clock.advance(by: 25 * 3600)
            await stack.runtime.janitor.runOnce()
            #expect(try await Self.count(stack, sql, m.accountId) == 0, "deleted by the sweeper")
        }
    }
}
