import Foundation
import ProviderSandbox
import Testing

/// A Citcon payment reaches a definite state: a charge that never reached Citcon fails `not_sent` once the
/// safe delay has passed, and a pending charge is handed out with a client token or not at all.
@Suite(.serialized) struct CitconResolutionEndToEndTests {
    static let merchant = TestStack.citconMerchant.id

    static func body(_ reference: String) -> [String: Any] {
        ["amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": reference]
    }

    static func attemptReference(_ payment: [String: Any]) throws -> String {
        try #require((payment["attempts"] as? [[String: Any]])?.last?["id"] as? String, "\(payment)")
    }

    static func clientToken(_ payment: [String: Any]) -> String? {
        ((payment["next_action"] as? [String: Any])?["data"] as? [String: Any])?["client_token"] as? String
    }

    static func chargeToken(_ payment: [String: Any]) -> String? {
        ((payment["next_action"] as? [String: Any])?["data"] as? [String: Any])?["charge_token"] as? String
    }

    /// Makes one payment so that the account's server token is cached: the next token call is a client token's.
    static func warmUp(_ stack: TestStack, _ m: TestStack.Merchant) async throws {
        let first = try await stack.createPayment(m, body("warm-up"))
        try #require(first["status"] as? String == "requires_action", "\(first)")
    }

    @Test func aChargeThatNeverReachedCitconFailsNotSentAfterTheSafeDelay() async throws {
        let clock = TestClock()
        // This test drives the janitor (the background one looks once at start).
        try await TestStack.with(providerTimeoutMs: 1_000, policy: { $0.janitor.pollMs = 600_000 }, clock: clock) {
            stack in
            let m = try await stack.merchant()
            // Both charge requests are held past the plugin's timeout and never processed.
            await stack.sandbox.citcon.addFaults([
                SandboxFault(
                    kind: .timeoutBeforeProcessing, method: "POST", pathPrefix: "/v1/charges",
                    merchant: Self.merchant, count: 2, latencyMs: 2_000)
            ])
            let keyed = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: Self.body("lost-1"),
                headers: ["Idempotency-Key": "lost-1"])
            try #require(keyed.status == 201, "\(String(decoding: keyed.body, as: UTF8.self))")
            #expect(keyed.json["status"] as? String == "unknown")
            let id = try #require(keyed.json["id"] as? String)
            let other = try await stack.createPayment(m, Self.body("lost-2"))
            #expect(other["status"] as? String == "unknown")
            let otherId = try #require(other["id"] as? String)

            // Right after the attempt "not found" proves nothing: the charge may still appear.
            let early = try await stack.send(.POST, "/v1/payments/\(otherId)/cancel", token: m.apiKey, json: [:])
            #expect(early.status == 409)
            #expect(early.errorCode == "outcome_unknown")

            clock.advance(by: 61)
            // The merchant's cancel asks Citcon, which still knows nothing: the payment failed, nothing to cancel.
            let canceled = try await stack.send(.POST, "/v1/payments/\(otherId)/cancel", token: m.apiKey, json: [:])
            #expect(canceled.status == 200, "\(String(decoding: canceled.body, as: UTF8.self))")
            #expect(canceled.json["status"] as? String == "failed")

            // The janitor's sync settles the other one the same way.
            await stack.runtime.janitor.runOnce()
            let settled = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(settled["status"] as? String == "failed", "\(settled)")
            #expect((settled["failure"] as? [String: Any])?["code"] as? String == "not_sent")
            let attempts = settled["attempts"] as? [[String: Any]] ?? []
            #expect(attempts.map { $0["outcome"] as? String } == ["notSent"], "never sent again")

            // The key answers with the settled payment, never `idempotency_in_progress`.
            let replay = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: Self.body("lost-1"),
                headers: ["Idempotency-Key": "lost-1"])
            #expect(replay.status == 201, "\(String(decoding: replay.body, as: UTF8.self))")
            #expect(replay.json["id"] as? String == id)
            #expect(replay.json["status"] as? String == "failed")

            #expect(await stack.sandbox.citcon.ledger(merchant: Self.merchant).isEmpty)
            for payment in [settled, other] {
                let reference = try Self.attemptReference(payment)
                #expect(await stack.sandbox.citcon.charge(merchant: Self.merchant, reference: reference) == nil)
            }
        }
    }

    @Test func aClientTokenCallFailingOnceIsRetriedAndTheSessionIsComplete() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            try await Self.warmUp(stack, m)
            let before = await stack.sandbox.citcon.tokensIssued(merchant: Self.merchant, kind: .client)
            await stack.sandbox.citcon.addFaults([
                SandboxFault(kind: .http500, method: "POST", pathPrefix: "/v1/access-tokens", count: 1)
            ])
            let created = try await stack.createPayment(m, Self.body("retry-1"))
            #expect(created["status"] as? String == "requires_action", "\(created)")
            #expect(Self.clientToken(created)?.isEmpty == false, "\(created)")
            #expect(await stack.sandbox.citcon.activeFaults().isEmpty, "the failing token call was made")
            #expect(await stack.sandbox.citcon.tokensIssued(merchant: Self.merchant, kind: .client) == before + 1)
        }
    }

    @Test func aClientTokenThatCannotBeObtainedFailsThePaymentAndCancelsTheCharge() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            try await Self.warmUp(stack, m)
            await stack.sandbox.citcon.addFaults([
                SandboxFault(kind: .http500, method: "POST", pathPrefix: "/v1/access-tokens")
            ])
            let created = try await stack.createPayment(m, Self.body("no-token-1"))
            #expect(created["status"] as? String == "failed", "\(created)")
            #expect((created["failure"] as? [String: Any])?["code"] as? String == "client_token_unavailable")
            #expect(created["next_action"] == nil || created["next_action"] is NSNull)
            let reference = try Self.attemptReference(created)
            let charge = await stack.sandbox.citcon.charge(merchant: Self.merchant, reference: reference)
            #expect(charge?.status == .canceled, "\(String(describing: charge))")
            let ledger = await stack.sandbox.citcon.ledger(merchant: Self.merchant)
            #expect(ledger.map(\.kind) == [.cancel], "\(ledger)")
            #expect(ledger.first?.amount == 0)
        }
    }

    @Test func aSyncFindingATimedOutChargeOpenHandsOutAUsableSession() async throws {
        try await TestStack.with(providerTimeoutMs: 1_000) { stack in
            let m = try await stack.merchant()
            // Citcon creates the charge, but its answer is lost.
            await stack.sandbox.citcon.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST", pathPrefix: "/v1/charges",
                    merchant: Self.merchant, count: 1, latencyMs: 2_000)
            ])
            let created = try await stack.createPayment(m, Self.body("open-1"))
            #expect(created["status"] as? String == "unknown", "\(created)")
            let id = try #require(created["id"] as? String)
            let synced = try await stack.send(.POST, "/v1/payments/\(id)/sync", token: m.apiKey, json: [:])
            #expect(synced.status == 200, "\(String(decoding: synced.body, as: UTF8.self))")
            #expect(synced.json["status"] as? String == "requires_action", "\(synced.json)")
            #expect(Self.clientToken(synced.json)?.isEmpty == false, "\(synced.json)")
            let reference = try Self.attemptReference(synced.json)
            let charge = try #require(await stack.sandbox.citcon.charge(merchant: Self.merchant, reference: reference))
            #expect(Self.chargeToken(synced.json) == charge.chargeToken)
            // The session works: the app pays and the IPN settles the payment.
            _ = try await stack.sandbox.citcon.confirm(chargeToken: charge.chargeToken, method: "alipay")
            let done = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            #expect((done["attempts"] as? [[String: Any]])?.count == 1, "never charged again")
        }
    }
}
