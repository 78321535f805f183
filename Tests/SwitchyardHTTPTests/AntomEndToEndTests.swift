import Foundation
import NIOHTTP1
import ProviderSandbox
import SwitchyardCrypto
import SwitchyardStore
import TestWaiting
import Testing

/// The whole path for Antom: merchant API → dlopen-loaded plugin → sandbox (EasySafePay sessions, the
/// wallet's authorisation, signed notifications, vaulting) → payments and stored payment methods.
@Suite(.serialized) struct AntomEndToEndTests {
    func ledger(_ stack: TestStack, _ kind: String) async -> [AntomLedgerEntry] {
        await stack.sandbox.antom.ledger(merchant: TestStack.antomClientId).filter { $0.kind == kind }
    }

    func paymentMethod(_ stack: TestStack, _ m: TestStack.Merchant, customer: String, id: String) async throws
        -> [String: Any]
    {
        try await stack.send(.GET, "/v1/customers/\(customer)/payment-methods/\(id)", token: m.apiKey).json
    }

    func waitForPaymentMethod(
        _ stack: TestStack, _ m: TestStack.Merchant, customer: String, id: String, status: String
    ) async throws -> [String: Any] {
        do {
            return try await Poll.value("payment method \(id)", within: .seconds(10), every: .milliseconds(100)) {
                let method = try await paymentMethod(stack, m, customer: customer, id: id)
                return method["status"] as? String == status ? method : nil
            }
        } catch is WaitTimedOut {
            throw TestFailure("payment method \(id) did not become \(status)")
        }
    }

    /// A first EasySafePay payment that sets up the agreement; returns the payment and the new `pm_…`.
    func firstPayment(_ stack: TestStack, _ m: TestStack.Merchant, customer: String) async throws -> (
        payment: [String: Any], paymentMethod: String, accessToken: String
    ) {
        let created = try await stack.createPayment(
            m,
            [
                "amount": 1500, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "first-1",
                "customer": customer, "save_payment_method": true, "return_url": "https://shop.example/back",
            ])
        #expect(created["status"] as? String == "requires_action")
        let next = try #require(created["next_action"] as? [String: Any])
        #expect(next["type"] as? String == "antom_payment_session")
        #expect(next["expires_at"] is String)
        let data = try #require(next["data"] as? [String: Any])
        #expect((data["paymentSessionData"] as? String)?.isEmpty == false)
        let sessionId = try #require(data["paymentSessionId"] as? String)
        let pm = try #require(created["saved_payment_method"] as? String)
        let pending = try await paymentMethod(stack, m, customer: customer, id: pm)
        #expect(pending["status"] as? String == "pending")

        // The app hands the session to the wallet; the shopper authorises the agreement and pays.
        let completion = try await stack.sandbox.antom.completeSession(paymentSessionId: sessionId)
        let token = try #require(completion.accessToken)
        let id = try #require(created["id"] as? String)
        let done = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
        return (done, pm, token)
    }

    @Test func easySafePayAgreementThenTokenPaymentThenRevocation() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant()
            let (first, pm, token) = try await firstPayment(stack, m, customer: "cust-1")
            #expect(first["amount_captured"] as? Int == 1500)
            let active = try await waitForPaymentMethod(stack, m, customer: "cust-1", id: pm, status: "active")
            #expect(active["kind"] as? String == "wallet_agreement")
            #expect(active["method"] as? String == "gcash")
            #expect(
                !String(decoding: try JSONSerialization.data(withJSONObject: active), as: UTF8.self)
                    .contains("token"))

            // A later payment with the stored agreement needs no session.
            let later = try await stack.createPayment(
                m,
                [
                    "amount": 2300, "currency": "PHP", "country": "PH", "reference": "later-1",
                    "customer": "cust-1", "payment_method": pm,
                ])
            #expect(later["status"] as? String == "succeeded", "\(later)")
            #expect(later["payment_method"] as? String == pm)
            #expect(later["method"] as? String == "gcash")
            #expect(await ledger(stack, "charge").map(\.amount).sorted() == [1500, 2300])

            // Another customer cannot use it.
            let stranger = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey,
                json: [
                    "amount": 100, "currency": "PHP", "country": "PH", "reference": "x", "customer": "cust-2",
                    "payment_method": pm,
                ])
            #expect(stranger.status == 400)
            #expect(stranger.errorCode == "unknown_payment_method")

            // The wallet revokes the agreement: TOKEN_CANCELED revokes the credential, and it no longer pays.
            _ = try await stack.sandbox.antom.cancelToken(token)
            let revoked = try await waitForPaymentMethod(stack, m, customer: "cust-1", id: pm, status: "revoked")
            // Deleting what the wallet already revoked changes nothing.
            let deleted = try await stack.send(.DELETE, "/v1/customers/cust-1/payment-methods/\(pm)", token: m.apiKey)
            #expect(deleted.json["status"] as? String == "revoked")
            #expect(deleted.json["updated_at"] as? String == revoked["updated_at"] as? String)
            #expect((deleted.json["failure"] as? [String: Any])?["code"] as? String == "TOKEN_CANCELED")
            let refused = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey,
                json: [
                    "amount": 100, "currency": "PHP", "country": "PH", "reference": "after-revoke",
                    "customer": "cust-1", "payment_method": pm,
                ])
            #expect(refused.status == 422)
            #expect(refused.errorCode == "payment_method_unusable")
            #expect(await ledger(stack, "charge").count == 2)
        }
    }

    @Test func vaultedCardAuthorisesThenCapturesThenRefundsAndLocalDeleteStopsIt() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant()
            let session = try await stack.send(
                .POST, "/v1/customers/cust-9/vaulting-sessions", token: m.apiKey,
                json: ["return_url": "https://shop.example/vaulted", "country": "SG"])
            #expect(session.status == 201, "\(String(decoding: session.body, as: UTF8.self))")
            #expect(session.json["status"] as? String == "pending")
            let next = try #require(session.json["next_action"] as? [String: Any])
            #expect(next["type"] as? String == "antom_vaulting_session")
            let data = try #require(next["data"] as? [String: Any])
            #expect((data["vaultingSessionData"] as? String)?.isEmpty == false)
            let vaultingSession = try #require(data["vaultingSessionId"] as? String)
            let pm = try #require(session.json["id"] as? String)

            // AMSVaulting's part: the shopper enters a card.
            _ = try await stack.sandbox.antom.completeVaulting(
                vaultingSessionId: vaultingSession,
                card: AntomCardInput(cardNumber: AntomTestCard.visa, expiryMonth: "12", expiryYear: "30", cvv: "123"))
            let card = try await waitForPaymentMethod(stack, m, customer: "cust-9", id: pm, status: "active")
            let display = try #require(card["display"] as? [String: Any])
            #expect(display["last4"] as? String == "0768")
            #expect(display["brand"] as? String == "VISA")
            #expect((display["masked"] as? String)?.contains("4054695723100768") == false)
            let listed = try await stack.send(.GET, "/v1/customers/cust-9/payment-methods", token: m.apiKey)
            #expect((listed.json["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [pm])

            let acknowledgedBefore = await stack.sandbox.antom.notificationAttempts().filter(\.acknowledged).count
            let paid = try await stack.createPayment(
                m,
                [
                    "amount": 4000, "currency": "SGD", "country": "SG", "reference": "card-1", "customer": "cust-9",
                    "payment_method": pm, "capture_mode": "manual",
                ])
            let id = try #require(paid["id"] as? String)
            #expect(paid["status"] as? String == "authorized", "\(paid)")
            // The payment result notification confirms the authorisation; it does not capture. Its
            // acknowledgement, recorded by the sandbox, says Switchyard has taken it in.
            try await Poll.until("the payment result notification acknowledged", within: .seconds(10)) {
                await stack.sandbox.antom.notificationAttempts().filter(\.acknowledged).count > acknowledgedBefore
            }
            let still = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(still["status"] as? String == "authorized")
            let captured = try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:])
            #expect(captured.json["status"] as? String == "succeeded", "\(captured.json)")
            #expect(captured.json["amount_captured"] as? Int == 4000)
            let refund = try await stack.send(
                .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 1000])
            #expect(refund.status == 201)
            #expect(refund.json["status"] as? String == "succeeded")
            #expect(await ledger(stack, "capture").map(\.amount) == [4000])
            #expect(await ledger(stack, "refund").map(\.amount) == [1000])

            // Antom documents no revocation for vaulted card tokens: the card is revoked in Switchyard only.
            let deleted = try await stack.send(.DELETE, "/v1/customers/cust-9/payment-methods/\(pm)", token: m.apiKey)
            #expect(deleted.json["status"] as? String == "revoked")
            let failure = try #require(deleted.json["failure"] as? [String: Any])
            #expect(failure["code"] as? String == "revoked_by_merchant")
            #expect((failure["message"] as? String)?.contains("does not support revocation") == true, "\(failure)")
            let again = try await stack.send(.DELETE, "/v1/customers/cust-9/payment-methods/\(pm)", token: m.apiKey)
            #expect(again.json["status"] as? String == "revoked")
            #expect(again.json["updated_at"] as? String == deleted.json["updated_at"] as? String)
            let refused = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey,
                json: [
                    "amount": 100, "currency": "SGD", "country": "SG", "reference": "card-2", "customer": "cust-9",
                    "payment_method": pm,
                ])
            #expect(refused.errorCode == "payment_method_unusable")
        }
    }

    @Test func theFailureCardNeverBecomesAPaymentMethod() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant()
            let session = try await stack.send(.POST, "/v1/customers/cust-f/vaulting-sessions", token: m.apiKey)
            #expect(session.status == 201)
            let pm = try #require(session.json["id"] as? String)
            let data = try #require((session.json["next_action"] as? [String: Any])?["data"] as? [String: Any])
            _ = try? await stack.sandbox.antom.completeVaulting(
                vaultingSessionId: try #require(data["vaultingSessionId"] as? String),
                card: AntomCardInput(cardNumber: AntomTestCard.failure, expiryMonth: "12", expiryYear: "30"))
            let failed = try await waitForPaymentMethod(stack, m, customer: "cust-f", id: pm, status: "failed")
            #expect(failed["failure"] is [String: Any])
            let synced = try await stack.send(
                .POST, "/v1/customers/cust-f/payment-methods/\(pm)/sync", token: m.apiKey)
            #expect(synced.json["status"] as? String == "failed")
        }
    }

    @Test func forgedNotificationIsRejectedAndChangesNothing() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant()
            let created = try await stack.createPayment(
                m, ["amount": 900, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "forge"])
            let id = try #require(created["id"] as? String)
            let attempt = try #require((created["attempts"] as? [[String: Any]])?.first?["id"] as? String)
            let body = Data(
                #"{"notifyType":"PAYMENT_RESULT","result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"success"},"paymentRequestId":"\#(attempt)","paymentId":"forged","paymentAmount":{"currency":"PHP","value":"900"}}"#
                    .utf8)
            let forger = try RSAPrivateKey.generate()
            let time = "2026-11-21T12:00:00+00:00"
            let path = "/notifications/\(m.accountId)"
            let content = "POST \(path)\n\(TestStack.antomClientId).\(time).\(String(decoding: body, as: UTF8.self))"
            let signature =
                Base64.encode(try forger.signSHA256(content))
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let reply = try await stack.send(
                .POST, path, raw: body,
                headers: [
                    "Content-Type": "application/json", "client-id": TestStack.antomClientId, "request-time": time,
                    "signature": "algorithm=RSA256,keyVersion=1,signature=\(signature)",
                ])
            #expect(reply.status == 401)
            let after = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(after["status"] as? String == "requires_action")
        }
    }

    @Test func timeoutAfterAntomChargedIsUnknownAndSyncFindsOneCharge() async throws {
        try await TestStack.with(providerTimeoutMs: 1_000) { stack in
            let m = try await stack.antomMerchant()
            let (_, pm, _) = try await firstPayment(stack, m, customer: "cust-t")
            _ = try await waitForPaymentMethod(stack, m, customer: "cust-t", id: pm, status: "active")
            await stack.sandbox.antom.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST", pathPrefix: "/ams/sandbox/api/v1/payments/pay",
                    count: 1, latencyMs: 3_000),
                SandboxFault(kind: .badSignature, count: 10),
            ])
            let paid = try await stack.createPayment(
                m,
                [
                    "amount": 3300, "currency": "PHP", "country": "PH", "reference": "timeout-1",
                    "customer": "cust-t", "payment_method": pm,
                ])
            let id = try #require(paid["id"] as? String)
            // Unknown, unless the sync round that the forged notification triggers found the charge while
            // the call was still out: a late timeout never moves a settled payment back.
            let status = paid["status"] as? String
            #expect(status == "unknown" || status == "succeeded", "\(paid)")
            await stack.sandbox.antom.clearFaults()
            let synced = try await stack.send(.POST, "/v1/payments/\(id)/sync", token: m.apiKey)
            #expect(synced.json["status"] as? String == "succeeded", "\(synced.json)")
            #expect(await ledger(stack, "charge").filter { $0.amount == 3300 }.count == 1, "exactly one charge")
        }
    }
}
