import Foundation
import ProviderSandbox
import SwitchyardCore
import Testing

/// The janitor settles every non-final state it can: an `authorized` payment is synced before its
/// authorisation lapses, and refunds and captures whose answer was lost are resolved as the provider
/// says. Each test drives the janitor itself with a test clock (the background one looks once at start).
@Suite(.serialized)
struct SettlementEndToEndTests {
    static let antomClient = TestStack.antomInstantClients[0]
    static let antomRefundPath = "/ams/sandbox/api/v1/payments/refund"
    /// Long enough that an inquiry answers within it on a loaded machine; the faults hold answers thrice as long.
    static let timeoutMs = 3_000
    /// The tests drive the janitor; an open refund or capture is first looked at a minute after it began.
    static let quietJanitor: @Sendable (inout PlatformPolicy) -> Void = {
        $0.janitor.pollMs = 600_000
        $0.janitor.scheduleMs = [60_000, 60_000]
    }

    static func get(_ stack: TestStack, _ m: TestStack.Merchant, _ id: String) async throws -> [String: Any] {
        let reply = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey)
        try #require(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return reply.json
    }

    static func refunds(_ payment: [String: Any]) -> [[String: Any]] { payment["refunds"] as? [[String: Any]] ?? [] }

    /// A Citcon payment the shopper paid (authorised only for a manual capture); returns its id.
    static func paidCitcon(_ stack: TestStack, _ m: TestStack.Merchant, capture: String) async throws -> String {
        let flows = CitconEndToEndTests()
        let created = try await flows.payment(stack, m, amount: 2000, capture: capture)
        let id = try #require(created["id"] as? String)
        _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(created), method: "alipay")
        let expected = capture == "manual" ? "authorized" : "succeeded"
        _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == expected }
        return id
    }

    /// An Antom wallet payment approved at once; returns its id.
    static func paidAntom(_ stack: TestStack, _ m: TestStack.Merchant, reference: String) async throws -> String {
        let created = try await stack.createPayment(
            m,
            [
                "amount": 1000, "currency": "PHP", "country": "PH", "method": "gcash", "reference": reference,
            ])
        let id = try #require(created["id"] as? String)
        _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
        return id
    }

    static func antomMerchant(_ stack: TestStack) async throws -> TestStack.Merchant {
        try await stack.merchant(
            name: "Refund Shop", account: try await stack.antomAccountBody(clientId: antomClient),
            match: ["currencies": ["PHP"]])
    }

    /// The next Citcon call to `path` meets `kind`, and the next `dropping` notifications (nil: all) are lost.
    static func citconFault(_ stack: TestStack, _ kind: SandboxFault.Kind, path: String, dropping: Int? = nil) async {
        var faults = [
            SandboxFault(kind: kind, method: "POST", pathPrefix: path, count: 1, latencyMs: 3 * Self.timeoutMs)
        ]
        if dropping != 0 { faults.append(SandboxFault(kind: .dropNotification, count: dropping)) }
        await stack.sandbox.citcon.addFaults(faults)
    }

    /// The next Antom refund call of the test merchant meets `kind`, and its notifications are lost.
    static func antomRefundFault(_ stack: TestStack, _ kind: SandboxFault.Kind) async {
        await stack.sandbox.antom.addFaults([
            SandboxFault(
                kind: kind, method: "POST", pathPrefix: antomRefundPath, merchant: antomClient, count: 1,
                latencyMs: 3 * Self.timeoutMs),
            SandboxFault(kind: .dropNotification, merchant: antomClient),
        ])
    }

    /// Moves the clock past the next look and runs the janitor, up to five times, until `done` holds for
    /// the payment (a look whose inquiry failed is repeated on the schedule); returns the payment.
    static func settle(
        _ stack: TestStack, _ clock: TestClock, _ m: TestStack.Merchant, _ id: String,
        until done: ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        var payment: [String: Any] = [:]
        for _ in 0..<5 {
            clock.advance(by: 120)
            await stack.runtime.janitor.runOnce()
            payment = try await get(stack, m, id)
            if done(payment) { break }
        }
        return payment
    }

    static func refundStatuses(_ payment: [String: Any]) -> [String?] {
        refunds(payment).map { $0["status"] as? String }
    }

    // MARK: Authorised payments

    @Test func anAuthorisationCancelledAtTheProviderWithoutANotificationIsSeenAtHalfTheHold() async throws {
        let clock = TestClock()
        try await TestStack.with(providerTimeoutMs: Self.timeoutMs, policy: Self.quietJanitor, clock: clock) { stack in
            let m = try await stack.merchant()
            let id = try await Self.paidCitcon(stack, m, capture: "manual")
            // The merchant cancels; Citcon cancels the charge, but its answer and notification are lost.
            await Self.citconFault(stack, .timeoutAfterProcessing, path: "/v1/cancels")
            let cancel = try await stack.send(.POST, "/v1/payments/\(id)/cancel", token: m.apiKey, json: [:])
            #expect(cancel.json["status"] as? String == "authorized", "\(cancel.json)")
            let attempt = try #require((cancel.json["attempts"] as? [[String: Any]])?.last)
            let charge = try #require(
                await stack.sandbox.citcon.charge(
                    merchant: TestStack.citconMerchant.id, reference: attempt["id"] as? String ?? ""))
            #expect(charge.status == .canceled, "cancelled at the provider")

            // Before half the hold (a week by default) nothing asks.
            clock.advance(by: 80 * 3600)
            await stack.runtime.janitor.runOnce()
            #expect(try await Self.get(stack, m, id)["status"] as? String == "authorized")

            clock.advance(by: 5 * 3600)
            await stack.runtime.janitor.runOnce()
            #expect(try await Self.get(stack, m, id)["status"] as? String == "canceled")
            #expect(await stack.sandbox.citcon.ledger().filter { $0.kind == .capture }.isEmpty)
        }
    }

    // MARK: Refunds

    @Test func aRefundWhoseAnswerWasLostIsSettledByTheProvidersRefundInquiry() async throws {
        let clock = TestClock()
        try await TestStack.with(providerTimeoutMs: Self.timeoutMs, policy: Self.quietJanitor, clock: clock) { stack in
            let m = try await Self.antomMerchant(stack)
            let id = try await Self.paidAntom(stack, m, reference: "lost-refund-1")
            await Self.antomRefundFault(stack, .timeoutAfterProcessing)
            let refund = try await stack.send(.POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: [:])
            #expect(refund.status == 201, "\(String(decoding: refund.body, as: UTF8.self))")
            #expect(refund.json["status"] as? String == "unknown")

            // A refund call may still be in flight within its deadline: it is left alone.
            await stack.runtime.janitor.runOnce()
            #expect(Self.refundStatuses(try await Self.get(stack, m, id)) == ["unknown"])

            let settled = try await Self.settle(stack, clock, m, id) { Self.refundStatuses($0) == ["succeeded"] }
            #expect(Self.refundStatuses(settled) == ["succeeded"], "\(settled)")
            #expect(settled["amount_refunded"] as? Int == 1000)
            let ledger = await stack.sandbox.antom.ledger(merchant: Self.antomClient).filter { $0.kind == "refund" }
            #expect(ledger.map(\.amount) == [1000], "exactly one refund at the provider")
        }
    }

    @Test func aRefundTheProviderNeverReceivedFails() async throws {
        let clock = TestClock()
        try await TestStack.with(providerTimeoutMs: Self.timeoutMs, policy: Self.quietJanitor, clock: clock) { stack in
            let m = try await Self.antomMerchant(stack)
            let id = try await Self.paidAntom(stack, m, reference: "unseen-refund-1")
            await Self.antomRefundFault(stack, .timeoutBeforeProcessing)
            let refund = try await stack.send(.POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: [:])
            #expect(refund.json["status"] as? String == "unknown", "\(refund.json)")
            let settled = try await Self.settle(stack, clock, m, id) { Self.refundStatuses($0) == ["failed"] }
            #expect(Self.refundStatuses(settled) == ["failed"], "\(settled)")
            #expect(settled["amount_refunded"] as? Int == 0)
            #expect(await stack.sandbox.antom.ledger(merchant: Self.antomClient).filter { $0.kind == "refund" }.isEmpty)
            // Nothing is left open: the merchant may refund again.
            let again = try await stack.send(.POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: [:])
            #expect(again.json["status"] as? String == "succeeded", "\(again.json)")
        }
    }

    @Test func withoutARefundInquiryTheRefundedTotalSettlesItOrItGoesToReview() async throws {
        let clock = TestClock()
        try await TestStack.with(providerTimeoutMs: Self.timeoutMs, policy: Self.quietJanitor, clock: clock) { stack in
            let m = try await stack.merchant()
            let first = try await Self.paidCitcon(stack, m, capture: "automatic")
            let second = try await Self.paidCitcon(stack, m, capture: "automatic")
            // Citcon has no refund inquiry. The first refund reaches Citcon but its answer is lost.
            await Self.citconFault(stack, .timeoutAfterProcessing, path: "/v1/refunds", dropping: 1)
            let lost = try await stack.send(.POST, "/v1/payments/\(first)/refunds", token: m.apiKey, json: [:])
            #expect(lost.json["status"] as? String == "unknown", "\(lost.json)")
            // The second never reaches Citcon: its total cannot tell, so it stays open and is listed.
            await Self.citconFault(stack, .timeoutBeforeProcessing, path: "/v1/refunds", dropping: 0)
            let unseen = try await stack.send(.POST, "/v1/payments/\(second)/refunds", token: m.apiKey, json: [:])
            #expect(unseen.json["status"] as? String == "unknown", "\(unseen.json)")

            let settled = try await Self.settle(stack, clock, m, first) { Self.refundStatuses($0) == ["succeeded"] }
            #expect(Self.refundStatuses(settled) == ["succeeded"], "\(settled)")
            #expect(settled["amount_refunded"] as? Int == 2000)
            let open = try await Self.get(stack, m, second)
            #expect(Self.refundStatuses(open) == ["unknown"], "never guessed: \(open)")
            let review = try await stack.send(.GET, "/admin/v1/payments/review", token: stack.operatorToken).json
            let listed = review["operations"] as? [[String: Any]] ?? []
            #expect(listed.count == 1, "\(review)")
            #expect(listed.first?["kind"] as? String == "refund")
            #expect(listed.first?["id"] as? String == unseen.json["id"] as? String)
            #expect(listed.first?["payment_id"] as? String == second)
            #expect(listed.first?["reason"] as? String == "refund_inquiry_unsupported")
            #expect(await stack.sandbox.citcon.ledger().filter { $0.kind == .refund }.map(\.amount) == [2000])
        }
    }

    // MARK: Captures

    @Test func aCaptureWhoseAnswerWasLostTakesTheOutcomeTheProviderReports() async throws {
        let clock = TestClock()
        try await TestStack.with(providerTimeoutMs: Self.timeoutMs, policy: Self.quietJanitor, clock: clock) { stack in
            let m = try await stack.merchant()
            let id = try await Self.paidCitcon(stack, m, capture: "manual")
            await Self.citconFault(stack, .timeoutAfterProcessing, path: "/v1/captures")
            let capture = try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:])
            #expect(capture.json["status"] as? String == "unknown", "\(capture.json)")
            let settled = try await Self.settle(stack, clock, m, id) { payment in
                (payment["operations"] as? [[String: Any]])?.first?["outcome"] as? String == "succeeded"
            }
            #expect(settled["status"] as? String == "succeeded", "\(settled)")
            #expect(settled["amount_captured"] as? Int == 2000)
            let operations = settled["operations"] as? [[String: Any]] ?? []
            #expect(operations.map { $0["outcome"] as? String } == ["succeeded"], "\(operations)")
            #expect(await stack.sandbox.citcon.ledger().filter { $0.kind == .capture }.count == 1)
        }
    }
}
