import Foundation
import ProviderSandbox
import SwitchyardCore
import SwitchyardStore
import Testing

/// Payments left `processing` (a crash between the payment's commit and its attempt, or an attempt whose
/// outcome was never recorded) are settled by the janitor once the provider deadline has passed, and
/// `cancel` of an open payment asks the provider first. Against the Antom sandbox (merchants whose wallet
/// users approve at once).
@Suite(.serialized)
struct StaleProcessingEndToEndTests {
    static let client = TestStack.antomInstantClients[0]
    static let createSessionPath = "/ams/sandbox/api/v1/payments/createPaymentSession"

    static func merchant(_ stack: TestStack) async throws -> TestStack.Merchant {
        try await stack.merchant(
            name: "Stale Shop", account: try await stack.antomAccountBody(clientId: client),
            match: ["currencies": ["PHP"]])
    }

    static func payment(_ stack: TestStack, _ m: TestStack.Merchant, _ id: String) async throws -> [String: Any] {
        let reply = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey)
        try #require(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return reply.json
    }

    static func body(reference: String, capture: String = "automatic") -> [String: Any] {
        [
            "amount": 1000, "currency": "PHP", "country": "PH", "method": "gcash", "reference": reference,
            "capture_mode": capture,
        ]
    }

    /// The merchant's next payment session is created at Antom, but its answer and notifications are lost.
    static func loseTheAnswer(_ stack: TestStack, merchant: String) async {
        await stack.sandbox.antom.addFaults([
            SandboxFault(
                kind: .timeoutAfterProcessing, method: "POST", pathPrefix: createSessionPath, merchant: merchant,
                count: 1, latencyMs: 3_000),
            SandboxFault(kind: .dropNotification, merchant: merchant),
        ])
    }

    /// A `processing` payment with no attempt, as a crash right after the payment's commit leaves it.
    static func stranded(_ stack: TestStack, _ m: TestStack.Merchant, id: String, at time: Date) async throws {
        let tenant = try #require(UUID(uuidString: m.tenantId))
        let payment = Payment(
            id: id, tenantId: tenant, amount: 1000, currency: "PHP", country: "PH", method: "gcash",
            reference: "crash-\(id)", captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
            status: .processing, createdAt: time)
        try await stack.runtime.store.payments.commit(PaymentChanges(payment: payment))
    }

    @Test func aPaymentCommittedWithoutAttemptFailsNotSentAfterTheDeadline() async throws {
        let clock = TestClock()
        // The background janitor looks once at start; this test drives it. A long provider timeout keeps
        // the deadline (2 × 60 s) far from the real time a loaded machine takes between the steps.
        try await TestStack.with(providerTimeoutMs: 60_000, policy: { $0.janitor.pollMs = 600_000 }, clock: clock) {
            stack in
            let m = try await Self.merchant(stack)
            try await Self.stranded(stack, m, id: "pay_stranded_1", at: clock.now())
            try await Self.stranded(stack, m, id: "pay_stranded_2", at: clock.now())

            // Within the deadline a live request may still be working on it.
            await stack.runtime.janitor.runOnce()
            #expect(try await Self.payment(stack, m, "pay_stranded_1")["status"] as? String == "processing")
            let early = try await stack.send(.POST, "/v1/payments/pay_stranded_1/cancel", token: m.apiKey, json: [:])
            #expect(early.status == 409)
            #expect((early.json["error"] as? [String: Any])?["code"] as? String == "payment_in_progress")

            clock.advance(by: 121)
            // The merchant's sync settles it the same way (it used to answer 409 invalid_state).
            let synced = try await stack.send(.POST, "/v1/payments/pay_stranded_2/sync", token: m.apiKey, json: [:])
            #expect(synced.status == 200, "\(String(decoding: synced.body, as: UTF8.self))")
            #expect(synced.json["status"] as? String == "failed")
            await stack.runtime.janitor.runOnce()
            let settled = try await Self.payment(stack, m, "pay_stranded_1")
            #expect(settled["status"] as? String == "failed", "\(settled)")
            #expect((settled["failure"] as? [String: Any])?["code"] as? String == "not_sent")
            #expect(await stack.sandbox.antom.ledger(merchant: Self.client).isEmpty)
        }
    }

    @Test func anAttemptWithoutOutcomeIsSyncedAndResolvesAsTheProviderSays() async throws {
        let clock = TestClock()
        // This test drives the janitor (the background one looks once at start).
        try await TestStack.with(providerTimeoutMs: 1_000, policy: { $0.janitor.pollMs = 600_000 }, clock: clock) {
            stack in
            let m = try await Self.merchant(stack)
            let tenant = try #require(UUID(uuidString: m.tenantId))
            await Self.loseTheAnswer(stack, merchant: Self.client)
            let created = try await stack.createPayment(m, Self.body(reference: "lost-outcome-1"))
            let id = try #require(created["id"] as? String)
            // What a crash before the attempt's outcome was recorded leaves behind: the provider charged,
            // the payment is `processing` with an attempt that has no outcome.
            var record = try #require(try await stack.runtime.store.payments.record(tenant: tenant, paymentId: id))
            var attempt = try #require(record.lastAttempt)
            attempt.outcome = nil
            attempt.finishedAt = nil
            record.payment.status = .processing
            record.payment.resolution = nil
            try await stack.runtime.store.payments.commit(PaymentChanges(payment: record.payment, attempts: [attempt]))
            clock.advance(by: 3)
            await stack.runtime.janitor.runOnce()
            let settled = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            #expect((settled["attempts"] as? [[String: Any]])?.count == 1, "never charged again")
            let charges = await stack.sandbox.antom.ledger(merchant: Self.client).filter { $0.kind == "charge" }
            #expect(charges.count == 1)
        }
    }

    /// Creates a payment whose outcome is unknown (the faults are the caller's), then cancels it.
    static func cancelUnknown(_ stack: TestStack, _ m: TestStack.Merchant, reference: String) async throws
        -> TestStack.Reply
    {
        let created = try await stack.createPayment(m, body(reference: reference))
        let id = try #require(created["id"] as? String)
        #expect(created["status"] as? String == "unknown", "\(created)")
        return try await stack.send(.POST, "/v1/payments/\(id)/cancel", token: m.apiKey, json: [:])
    }

    @Test func cancelOfAnUnknownPaymentTheProviderCannotAnswerIsRefusedAndStaysUnknown() async throws {
        try await TestStack.with(providerTimeoutMs: 1_000) { stack in
            let m = try await Self.merchant(stack)
            await Self.loseTheAnswer(stack, merchant: Self.client)
            await stack.sandbox.antom.addFaults([
                SandboxFault(kind: .http500, pathPrefix: "/ams/sandbox/api/v1/payments/inquiryPayment")
            ])
            let reply = try await Self.cancelUnknown(stack, m, reference: "silent-1")
            #expect(reply.status == 409, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect((reply.json["error"] as? [String: Any])?["code"] as? String == "outcome_unknown")
            let kinds = await stack.sandbox.antom.ledger(merchant: Self.client).map(\.kind)
            #expect(kinds == ["charge"], "nothing is voided without the provider's word: \(kinds)")
        }
    }

    @Test func cancelOfAnUnknownPaymentTheProviderNeverSawAnswersItsFailure() async throws {
        let clock = TestClock()
        try await TestStack.with(providerTimeoutMs: 1_000, clock: clock) { stack in
            let m = try await Self.merchant(stack)
            await stack.sandbox.antom.addFaults([
                SandboxFault(
                    kind: .timeoutBeforeProcessing, method: "POST", pathPrefix: Self.createSessionPath,
                    merchant: Self.client, count: 1, latencyMs: 3_000)
            ])
            // Right after the attempt `ORDER_NOT_EXIST` proves nothing: the request may still be processed.
            let created = try await stack.createPayment(m, Self.body(reference: "never-seen-1"))
            #expect(created["status"] as? String == "unknown", "\(created)")
            let id = try #require(created["id"] as? String)
            let early = try await stack.send(.POST, "/v1/payments/\(id)/cancel", token: m.apiKey, json: [:])
            #expect(early.status == 409, "\(String(decoding: early.body, as: UTF8.self))")
            #expect((early.json["error"] as? [String: Any])?["code"] as? String == "outcome_unknown")
            clock.advance(by: 61)
            let reply = try await stack.send(.POST, "/v1/payments/\(id)/cancel", token: m.apiKey, json: [:])
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(reply.json["status"] as? String == "failed", "Antom has no such payment: \(reply.json)")
            #expect((reply.json["failure"] as? [String: Any])?["code"] as? String == "not_sent")
            #expect(await stack.sandbox.antom.ledger(merchant: Self.client).isEmpty)
        }
    }

    @Test func cancelOfAnUnknownPaymentTheProviderHoldsCancelsItThere() async throws {
        try await TestStack.with(providerTimeoutMs: 1_000) { stack in
            // The first Antom merchant's wallet users do not approve at once: its payment stays open there.
            let m = try await stack.merchant(
                name: "Open Shop", account: try await stack.antomAccountBody(clientId: TestStack.antomClientId),
                match: ["currencies": ["PHP"]])
            await Self.loseTheAnswer(stack, merchant: TestStack.antomClientId)
            let reply = try await Self.cancelUnknown(stack, m, reference: "held-1")
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(reply.json["status"] as? String == "canceled", "\(reply.json)")
            let attempts = reply.json["attempts"] as? [[String: Any]] ?? []
            let providerId = try #require(attempts.last?["provider_payment_id"] as? String, "\(reply.json)")
            let atAntom = await stack.sandbox.antom.payment(id: providerId)
            #expect(atAntom?.status == .cancelled, "\(String(describing: atAntom))")
            #expect(await stack.sandbox.antom.ledger(merchant: TestStack.antomClientId).isEmpty)
        }
    }
}
