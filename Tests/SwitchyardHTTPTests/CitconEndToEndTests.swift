import Foundation
import NIOHTTP1
import ProviderSandbox
import SwitchyardCluster
import SwitchyardCrypto
import SwitchyardStore
import Testing

/// The whole path: merchant API → routing → dlopen-loaded Citcon plugin → sandbox → IPN → state.
@Suite(.serialized) struct CitconEndToEndTests {
    func payment(_ stack: TestStack, _ m: TestStack.Merchant, amount: Int = 1234, capture: String = "automatic")
        async throws -> [String: Any]
    {
        try await stack.createPayment(
            m,
            [
                "amount": amount, "currency": "USD", "country": "US", "method": "alipay",
                "reference": "order-\(UUID().uuidString.prefix(8))", "capture_mode": capture,
            ])
    }

    func chargeToken(_ payment: [String: Any]) throws -> String {
        let next = try #require(payment["next_action"] as? [String: Any])
        #expect(next["type"] as? String == "citcon_sdk")
        let data = try #require(next["data"] as? [String: Any])
        #expect((data["client_token"] as? String)?.isEmpty == false)
        #expect(next["expires_at"] is String)
        return try #require(data["charge_token"] as? String)
    }

    @Test func createConfirmNotifySucceeds() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let created = try await payment(stack, m)
            #expect(created["status"] as? String == "requires_action")
            let attempts = try #require(created["attempts"] as? [[String: Any]])
            #expect(attempts.count == 1)
            #expect(attempts.first?["outcome"] as? String == "pending")
            let id = try #require(created["id"] as? String)
            // The app's step, played by the sandbox: confirm the pending charge.
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try chargeToken(created), method: "alipay")
            let done = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            #expect(done["amount_captured"] as? Int == 1234)
            #expect(done["next_action"] == nil || done["next_action"] is NSNull)
            let ledger = await stack.sandbox.citcon.ledger()
            #expect(ledger.filter { $0.kind == .charge }.count == 1)
        }
    }

    @Test func manualCaptureThenPartialRefunds() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let created = try await payment(stack, m, amount: 5000, capture: "manual")
            let id = try #require(created["id"] as? String)
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try chargeToken(created), method: "alipay")
            _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "authorized" }

            let captured = try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:])
            #expect(captured.status == 200)
            #expect(captured.json["status"] as? String == "succeeded")
            #expect(captured.json["amount_captured"] as? Int == 5000)

            let refund = try await stack.send(
                .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 1500])
            #expect(refund.status == 201)
            #expect(refund.json["status"] as? String == "succeeded")
            let second = try await stack.send(
                .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 3500])
            #expect(second.json["status"] as? String == "succeeded")
            let over = try await stack.send(.POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 1])
            #expect(over.status == 422)
            #expect(over.errorCode == "refund_exceeds_captured")
            let final = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(final["amount_refunded"] as? Int == 5000)
            let ledger = await stack.sandbox.citcon.ledger()
            #expect(ledger.filter { $0.kind == .capture }.count == 1)
            #expect(ledger.filter { $0.kind == .refund }.map(\.amount).sorted() == [1500, 3500])
        }
    }

    @Test func completeIsRefusedForAProviderWithoutThatStep() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let created = try await payment(stack, m)
            let id = try #require(created["id"] as? String)
            let reply = try await stack.send(
                .POST, "/v1/payments/\(id)/complete", token: m.apiKey, json: ["payment_data": ["x": "y"]])
            #expect(reply.status == 409)
            #expect(reply.errorCode == "not_supported")
            let missing = try await stack.send(.POST, "/v1/payments/\(id)/complete", token: m.apiKey, json: [:])
            #expect(missing.status == 400)
            #expect(missing.errorCode == "missing_field")
        }
    }

    @Test func cancelBeforeConfirm() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let created = try await payment(stack, m)
            let id = try #require(created["id"] as? String)
            let canceled = try await stack.send(.POST, "/v1/payments/\(id)/cancel", token: m.apiKey)
            #expect(canceled.status == 200)
            #expect(canceled.json["status"] as? String == "canceled")
            let again = try await stack.send(.POST, "/v1/payments/\(id)/cancel", token: m.apiKey)
            #expect(again.status == 409)
            #expect(again.errorCode == "invalid_state")
        }
    }

    @Test func forgedNotificationIsRejectedAndChangesNothing() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let created = try await payment(stack, m)
            let id = try #require(created["id"] as? String)
            let attempt = try #require((created["attempts"] as? [[String: Any]])?.first)
            let reference = try #require(attempt["id"] as? String)
            let form =
                "id=\(attempt["provider_payment_id"] as? String ?? "1")&transaction_type=charge&reference=\(reference)&amount=1234&currency=USD&status=success&fields=amount,currency,id,reference,status,transaction_type&sign=\(String(repeating: "0", count: 64))"
            let reply = try await stack.send(
                .POST, "/notifications/\(m.accountId)", raw: Data(form.utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(reply.status == 401)
            let after = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(after["status"] as? String == "requires_action")
        }
    }

    @Test func connectionRefusedIsAClearNotSentAttempt() async throws {
        try await TestStack.with { stack in
            let closed = "http://127.0.0.1:\(PostgresCluster.freePort())/citcon"
            let m = try await stack.merchant(citconBaseURL: closed)
            let created = try await payment(stack, m)
            #expect(created["status"] as? String == "failed")
            let failure = try #require(created["failure"] as? [String: Any])
            #expect(failure["code"] as? String == "provider_unreachable")
            let attempts = try #require(created["attempts"] as? [[String: Any]])
            #expect(attempts.map { $0["outcome"] as? String } == ["notSent"])
            #expect(await stack.sandbox.citcon.ledger().isEmpty)
        }
    }

    @Test func timeoutAfterTheProviderCapturedIsUnknownAndSyncResolvesIt() async throws {
        try await TestStack.with(providerTimeoutMs: 1_000) { stack in
            let m = try await stack.merchant()
            let created = try await payment(stack, m, amount: 2000, capture: "manual")
            let id = try #require(created["id"] as? String)
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try chargeToken(created), method: "alipay")
            _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "authorized" }
            // The sandbox captures, then holds its answer past our timeout; its IPNs fail verification, so
            // nothing but an inquiry can tell us what happened.
            await stack.sandbox.citcon.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST", pathPrefix: "/v1/captures", count: 1,
                    latencyMs: 3_000),
                SandboxFault(kind: .badSignature),
            ])
            let capture = try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:])
            #expect(capture.status == 200)
            #expect(capture.json["status"] as? String == "unknown")
            // A second capture request must not capture again: it syncs first and finds the money captured.
            let retry = try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:])
            #expect(retry.status == 409)
            let synced = try await stack.send(.POST, "/v1/payments/\(id)/sync", token: m.apiKey)
            #expect(synced.json["status"] as? String == "succeeded")
            #expect(synced.json["amount_captured"] as? Int == 2000)
            let captures = await stack.sandbox.citcon.ledger().filter { $0.kind == .capture }
            #expect(captures.count == 1, "exactly one capture at the provider")
        }
    }

    @Test func aNotificationArrivingWhileTheCaptureHangsSettlesThePaymentOnce() async throws {
        try await TestStack.with(providerTimeoutMs: 1_000) { stack in
            let m = try await stack.merchant()
            let created = try await payment(stack, m, amount: 2000, capture: "manual")
            let id = try #require(created["id"] as? String)
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try chargeToken(created), method: "alipay")
            _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "authorized" }
            await stack.sandbox.citcon.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST", pathPrefix: "/v1/captures", count: 1,
                    latencyMs: 3_000)
            ])
            // The capture's IPN is applied while our capture call waits; its late timeout must not undo it.
            let capture = try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:])
            #expect(capture.json["status"] as? String == "succeeded")
            #expect(capture.json["amount_captured"] as? Int == 2000)
            let operations = try #require(capture.json["operations"] as? [[String: Any]])
            #expect(operations.map { $0["outcome"] as? String } == ["unknown"])
            #expect(await stack.sandbox.citcon.ledger().filter { $0.kind == .capture }.count == 1)
        }
    }

    @Test func timeoutOnCreateIsUnknownAndSyncFindsTheSingleCharge() async throws {
        try await TestStack.with(providerTimeoutMs: 1_000) { stack in
            let m = try await stack.merchant()
            await stack.sandbox.citcon.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST", pathPrefix: "/v1/charges", count: 1, latencyMs: 3_000
                )
            ])
            let created = try await payment(stack, m)
            #expect(created["status"] as? String == "unknown")
            let attempts = try #require(created["attempts"] as? [[String: Any]])
            #expect(attempts.map { $0["outcome"] as? String } == ["unknown"], "unknown never fails over")
            let id = try #require(created["id"] as? String)
            let reference = try #require(attempts.first?["id"] as? String)
            let synced = try await stack.send(.POST, "/v1/payments/\(id)/sync", token: m.apiKey)
            #expect(synced.json["status"] as? String == "requires_action")
            let charge = await stack.sandbox.citcon.charge(merchant: TestStack.citconMerchant.id, reference: reference)
            #expect(charge != nil, "the provider holds exactly the one charge we created")
        }
    }
}
