import AsyncHTTPClient
import Foundation
import NIOHTTP1
import ProviderSandbox
import SwitchyardCrypto
import SwitchyardStore
import Testing

/// The whole path for Worldline Direct: merchant API → routing → dlopen-loaded plugin → sandbox (client
/// session, the app's JWE, CreatePayment, 3-D Secure, signed webhooks) → state.
@Suite(.serialized) struct WorldlineEndToEndTests {
    func payment(_ stack: TestStack, _ m: TestStack.Merchant, amount: Int = 2500, capture: String = "automatic")
        async throws -> [String: Any]
    {
        try await stack.createPayment(
            m,
            [
                "amount": amount, "currency": "EUR", "country": "FR", "method": "card",
                "reference": "order-\(UUID().uuidString.prefix(8))", "capture_mode": capture,
                "return_url": "https://shop.example/return",
            ])
    }

    /// The client session handed to the app, checked for every field OnlinePaymentsKit needs.
    func session(_ payment: [String: Any]) throws -> (clientSessionId: String, customerId: String) {
        let next = try #require(payment["next_action"] as? [String: Any])
        #expect(next["type"] as? String == "worldline_client_session")
        #expect(next["expires_at"] is String)
        let data = try #require(next["data"] as? [String: Any])
        #expect((data["clientApiUrl"] as? String)?.hasSuffix("/worldline-direct/client") == true)
        #expect((data["assetUrl"] as? String)?.isEmpty == false)
        return (try #require(data["clientSessionId"] as? String), try #require(data["customerId"] as? String))
    }

    /// Plays the app: encrypts `card` with the session's public key (OnlinePaymentsKit's JWE) and has the
    /// merchant post it to `/complete`.
    func complete(
        _ stack: TestStack, _ m: TestStack.Merchant, _ created: [String: Any], card: String
    ) async throws -> TestStack.Reply {
        let id = try #require(created["id"] as? String)
        let session = try session(created)
        let jwe = try await stack.sandbox.worldlineDirect.encryptCustomerInput(
            clientSessionId: session.clientSessionId, customerId: session.customerId,
            card: WorldlineDirectCardInput(
                cardNumber: card, expiryDate: "1230", cvv: "123", cardholderName: "End To End"))
        return try await stack.send(
            .POST, "/v1/payments/\(id)/complete", token: m.apiKey,
            json: ["payment_data": ["encrypted_customer_input": jwe]])
    }

    func ledger(_ stack: TestStack, _ kind: String) async -> [WorldlineDirectLedgerEntry] {
        await stack.sandbox.worldlineDirect.ledger(merchant: TestStack.worldlineMerchant.merchantId)
            .filter { $0.kind == kind }
    }

    @Test func sessionThenAppInputThenChallengeThenWebhookSucceeds() async throws {
        try await TestStack.with { stack in
            let m = try await stack.worldlineMerchant()
            let created = try await payment(stack, m)
            #expect(created["status"] as? String == "requires_action")
            let id = try #require(created["id"] as? String)
            let completed = try await complete(stack, m, created, card: WorldlineDirectTestCard.challenge)
            #expect(completed.status == 200, "\(String(decoding: completed.body, as: UTF8.self))")
            #expect(completed.json["status"] as? String == "requires_action")
            let next = try #require(completed.json["next_action"] as? [String: Any])
            #expect(next["type"] as? String == "redirect")
            let url = try #require((next["data"] as? [String: Any])?["url"] as? String)
            // The shopper passes the challenge; the sandbox then signs and sends the webhook.
            var challenge = HTTPClientRequest(url: url + "?result=success")
            challenge.method = .GET
            let browser = HTTPClient(
                eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
            let answer = try await browser.execute(challenge, timeout: .seconds(10))
            try await browser.shutdown()
            #expect(answer.status == .found)
            #expect(answer.headers.first(name: "location")?.hasPrefix("https://shop.example/return") == true)
            let done = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            #expect(done["amount_captured"] as? Int == 2500)
            #expect(done["next_action"] == nil || done["next_action"] is NSNull)
            let attempts = await stack.sandbox.worldlineDirect.notificationAttempts()
            #expect(attempts.contains { $0.acknowledged && $0.url.hasSuffix("/notifications/\(m.accountId)") })
            #expect(await ledger(stack, "capture").count == 1)
            // A second completion of a finished payment sends nothing.
            let again = try await complete(stack, m, created, card: WorldlineDirectTestCard.authorised)
            #expect(again.status == 409)
            #expect(await ledger(stack, "capture").count == 1)
        }
    }

    @Test func manualCaptureThenPartialRefundThenCancelOfAnother() async throws {
        try await TestStack.with { stack in
            let m = try await stack.worldlineMerchant()
            let created = try await payment(stack, m, amount: 5000, capture: "manual")
            let id = try #require(created["id"] as? String)
            let completed = try await complete(stack, m, created, card: WorldlineDirectTestCard.authorised)
            #expect(completed.json["status"] as? String == "authorized")

            let captured = try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:])
            #expect(captured.status == 200)
            #expect(captured.json["status"] as? String == "succeeded")
            #expect(captured.json["amount_captured"] as? Int == 5000)

            let refund = try await stack.send(
                .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 1200])
            #expect(refund.status == 201)
            #expect(refund.json["status"] as? String == "succeeded")
            let after = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(after["amount_refunded"] as? Int == 1200)
            #expect(await ledger(stack, "refund").map(\.amount) == [1200])
            #expect(await ledger(stack, "capture").map(\.amount) == [5000])

            let other = try await payment(stack, m, amount: 800, capture: "manual")
            let otherId = try #require(other["id"] as? String)
            _ = try await complete(stack, m, other, card: WorldlineDirectTestCard.authorised)
            let canceled = try await stack.send(.POST, "/v1/payments/\(otherId)/cancel", token: m.apiKey)
            #expect(canceled.status == 200)
            #expect(canceled.json["status"] as? String == "canceled")
            #expect(await ledger(stack, "cancel").map(\.amount) == [800])
        }
    }

    @Test func declinedCardFailsWithTheProvidersAnswer() async throws {
        try await TestStack.with { stack in
            let m = try await stack.worldlineMerchant()
            let created = try await payment(stack, m)
            let completed = try await complete(stack, m, created, card: WorldlineDirectTestCard.declined)
            #expect(completed.json["status"] as? String == "failed")
            let failure = try #require(completed.json["failure"] as? [String: Any])
            #expect((failure["code"] as? String)?.isEmpty == false)
            #expect(await stack.sandbox.worldlineDirect.ledger().isEmpty)
        }
    }

    @Test func expiredSessionIsRefusedAndNothingIsSent() async throws {
        try await TestStack.with { stack in
            let m = try await stack.worldlineMerchant()
            let created = try await payment(stack, m)
            let id = try #require(created["id"] as? String)
            let session = try session(created)
            let jwe = try await stack.sandbox.worldlineDirect.encryptCustomerInput(
                clientSessionId: session.clientSessionId, customerId: session.customerId,
                card: WorldlineDirectCardInput(cardNumber: WorldlineDirectTestCard.authorised, expiryDate: "1230"))
            // Our record of the session's expiry is what decides; move it into the past.
            _ = try await stack.runtime.pool.withConnection { connection in
                try await connection.query(
                    "UPDATE payments SET next_action = jsonb_set(next_action, '{expiresAt}', '1577836800') WHERE id = $1",
                    [.text(id)])
            }
            let reply = try await stack.send(
                .POST, "/v1/payments/\(id)/complete", token: m.apiKey,
                json: ["payment_data": ["encrypted_customer_input": jwe]])
            #expect(reply.status == 410)
            #expect(reply.errorCode == "session_expired")
            #expect(await stack.sandbox.worldlineDirect.ledger().isEmpty)
        }
    }

    @Test func forgedWebhookIsRejectedAndChangesNothing() async throws {
        try await TestStack.with { stack in
            let m = try await stack.worldlineMerchant()
            let created = try await payment(stack, m)
            let id = try #require(created["id"] as? String)
            _ = try await complete(stack, m, created, card: WorldlineDirectTestCard.pending)
            let pending = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            let providerId = try #require(
                (pending["attempts"] as? [[String: Any]])?.first?["provider_payment_id"] as? String)
            let body = Data(
                #"{"apiVersion":"v1","id":"evt-forged","created":"2026-11-21T10:00:00.000+0000","merchantId":"wl1","type":"payment.captured","payment":{"id":"\#(providerId)","status":"CAPTURED","statusOutput":{"statusCode":9,"statusCategory":"COMPLETED"},"paymentOutput":{"amountOfMoney":{"amount":2500,"currencyCode":"EUR"}}}}"#
                    .utf8)
            let forged = Base64.encode(HMAC.sha256(key: Array("not-the-secret".utf8), message: Array(body)))
            let reply = try await stack.send(
                .POST, "/notifications/\(m.accountId)", raw: body,
                headers: [
                    "Content-Type": "application/json", "X-GCS-Signature": forged,
                    "X-GCS-KeyId": TestStack.worldlineMerchant.webhookKeyId,
                ])
            #expect(reply.status == 401)
            let after = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(after["status"] as? String != "succeeded")
            // The real answer still lands: the shopper's bank approves and the signed webhook is applied.
            try await stack.sandbox.worldlineDirect.resolve(paymentId: providerId, approved: true)
            _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
        }
    }

    @Test func timeoutAfterTheSandboxAuthorisedIsUnknownAndSyncFindsOneCharge() async throws {
        try await TestStack.with(providerTimeoutMs: 1_000) { stack in
            let m = try await stack.worldlineMerchant()
            let created = try await payment(stack, m, amount: 3100)
            let id = try #require(created["id"] as? String)
            await stack.sandbox.worldlineDirect.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST", pathPrefix: "/v2/wl1/payments", count: 1,
                    latencyMs: 3_000),
                // The rejected (mis-signed) webhook makes us sync at once; Worldline is down for those replays.
                SandboxFault(kind: .http503, method: "POST", pathPrefix: "/v2/wl1/payments", count: 50),
                SandboxFault(kind: .badSignature),
            ])
            let completed = try await complete(stack, m, created, card: WorldlineDirectTestCard.authorised)
            #expect(completed.status == 200)
            #expect(completed.json["status"] as? String == "unknown")
            #expect(await ledger(stack, "capture").count == 1, "the sandbox did charge")
            // Completing again must not charge again.
            let again = try await complete(stack, m, created, card: WorldlineDirectTestCard.authorised)
            #expect(again.status == 409)
            await stack.sandbox.worldlineDirect.clearFaults()
            let synced = try await stack.send(.POST, "/v1/payments/\(id)/sync", token: m.apiKey)
            #expect(synced.status == 200)
            #expect(synced.json["status"] as? String == "succeeded")
            #expect(synced.json["amount_captured"] as? Int == 3100)
            let operations = try #require(synced.json["operations"] as? [[String: Any]])
            #expect(operations.map { $0["outcome"] as? String } == ["succeeded"])
            let attempt = try #require((synced.json["attempts"] as? [[String: Any]])?.first)
            #expect((attempt["provider_payment_id"] as? String)?.isEmpty == false)
            #expect(await ledger(stack, "capture").count == 1, "exactly one charge at the provider")
        }
    }
}
