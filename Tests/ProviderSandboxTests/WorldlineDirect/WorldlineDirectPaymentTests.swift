import Foundation
import ProviderSandbox
import Testing

@Suite struct WorldlineDirectPaymentTests {
    private func statusCode(_ payment: [String: Any]) -> Int? {
        (payment["statusOutput"] as? [String: Any])?["statusCode"] as? Int
    }

    @Test func authorisedCardFollowsTheAuthorisationMode() async throws {
        try await withWorldlineSandbox { sandbox in
            let sale = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.authorised, mode: "SALE")
            #expect(sale.status == 201)
            #expect(sale.payment["status"] as? String == "CAPTURED")
            #expect(statusCode(sale.payment) == 9)
            let card = sale.dict("payment", "paymentOutput", "cardPaymentMethodSpecificOutput", "card")
            #expect(card["cardNumber"] as? String == "************0026")
            let final = try await sandbox.m1.createPayment(
                card: WorldlineDirectTestCard.authorised, mode: "FINAL_AUTHORIZATION")
            #expect(final.payment["status"] as? String == "PENDING_CAPTURE")
            #expect(statusCode(final.payment) == 5)
            #expect(final.object["merchantAction"] == nil)
        }
    }

    @Test func declinedCardAnswers402WithPaymentResult() async throws {
        try await withWorldlineSandbox { sandbox in
            let reply = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.declined)
            #expect(reply.status == 402)
            #expect(reply.errorCode == "30511001")
            let payment = reply.dict("paymentResult", "payment")
            #expect(payment["status"] as? String == "REJECTED")
            #expect(statusCode(payment) == 2)
            #expect(await sandbox.server.worldlineDirect.ledger().isEmpty)
        }
    }

    @Test func challengeCardRedirectsUntilCompleted() async throws {
        try await withWorldlineSandbox { sandbox in
            let reply = try await sandbox.m1.createPayment(
                card: WorldlineDirectTestCard.challenge, mode: "FINAL_AUTHORIZATION")
            #expect(reply.status == 201)
            #expect(reply.payment["status"] as? String == "REDIRECTED")
            #expect(statusCode(reply.payment) == 46)
            let action = reply.dict("merchantAction")
            #expect(action["actionType"] as? String == "REDIRECT")
            let redirect = try #require(reply.dict("merchantAction", "redirectData")["redirectURL"] as? String)
            let id = try #require(reply.payment["id"] as? String)
            #expect(redirect.hasSuffix("/_sandbox/worldline-direct/challenge/\(id)"))
            let completed = try await wlSend("GET", redirect + "?result=success", followRedirects: false)
            #expect(completed.status == 302)
            #expect(completed.headers["location"] == "https://shop.example/return?paymentId=\(id)")
            let fetched = try await sandbox.m1.call("GET", "payments/\(id)")
            #expect(fetched.string("status") == "PENDING_CAPTURE")
        }
    }

    @Test func pendingCardStaysPendingUntilResolved() async throws {
        try await withWorldlineSandbox { sandbox in
            let reply = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.pending)
            #expect(reply.payment["status"] as? String == "AUTHORIZATION_REQUESTED")
            #expect(statusCode(reply.payment) == 51)
            let id = try #require(reply.payment["id"] as? String)
            let resolved = try await wlSend(
                "POST", sandbox.admin + "/payments/\(id)/resolve", json: ["approved": false])
            #expect(resolved.string("status") == "REJECTED")
            let fetched = try await sandbox.m1.call("GET", "payments/\(id)")
            #expect(fetched.string("status") == "REJECTED")
        }
    }

    @Test func captureCancelAndRefund() async throws {
        try await withWorldlineSandbox { sandbox in
            let auth = try await sandbox.m1.createPayment(
                card: WorldlineDirectTestCard.authorised, amount: 5000, mode: "FINAL_AUTHORIZATION")
            let id = try #require(auth.payment["id"] as? String)
            let tooMuch = try await sandbox.m1.call("POST", "payments/\(id)/capture", json: ["amount": 6000])
            #expect(tooMuch.status == 400)
            let capture = try await sandbox.m1.call(
                "POST", "payments/\(id)/capture",
                json: ["amount": 5000, "isFinal": true, "operationReferences": ["merchantReference": "cap-1"]])
            #expect(capture.status == 201)
            #expect(capture.string("status") == "CAPTURED")
            #expect((capture.object["statusOutput"] as? [String: Any])?["statusCode"] as? Int == 9)
            #expect(int64(capture.dict("captureOutput", "amountOfMoney")["amount"]) == 5000)
            let cancelCaptured = try await sandbox.m1.call("POST", "payments/\(id)/cancel", json: [String: Any]())
            #expect(cancelCaptured.status == 409)

            let refund = try await sandbox.m1.call(
                "POST", "payments/\(id)/refund", json: ["amountOfMoney": ["amount": 2000, "currencyCode": "EUR"]])
            #expect(refund.status == 201)
            #expect(refund.string("status") == "REFUNDED")
            #expect((refund.object["statusOutput"] as? [String: Any])?["statusCode"] as? Int == 8)
            let overRefund = try await sandbox.m1.call(
                "POST", "payments/\(id)/refund", json: ["amountOfMoney": ["amount": 3001, "currencyCode": "EUR"]])
            #expect(overRefund.status == 400)
            let details = try await sandbox.m1.call("GET", "payments/\(id)/details")
            #expect(
                (details.object["Operations"] as? [[String: Any]])?.compactMap { $0["type"] as? String }
                    == ["AUTHORIZATION", "CAPTURE", "REFUND"])

            let other = try await sandbox.m1.createPayment(
                card: WorldlineDirectTestCard.authorised, amount: 700, mode: "FINAL_AUTHORIZATION")
            let otherId = try #require(other.payment["id"] as? String)
            let cancel = try await sandbox.m1.call("POST", "payments/\(otherId)/cancel", json: [String: Any]())
            #expect(cancel.status == 200)
            #expect(cancel.payment["status"] as? String == "CANCELLED")
            #expect(statusCode(cancel.payment) == 6)

            let ledger = await sandbox.server.worldlineDirect.ledger(merchant: "MERCH1")
            #expect(ledger.map(\.kind) == ["authorization", "capture", "refund", "authorization", "cancel"])
            #expect(ledger.map(\.amount) == [5000, 5000, 2000, 700, 700])
        }
    }

    @Test func paymentsOfAnotherMerchantAreNotVisible() async throws {
        try await withWorldlineSandbox { sandbox in
            let created = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.authorised)
            let id = try #require(created.payment["id"] as? String)
            let m2 = WLClient(
                root: sandbox.root, merchantId: "MERCH2", keyId: "KEYID456", secret: "secret-key-def",
                clock: sandbox.clock)
            #expect(try await m2.call("GET", "payments/\(id)").status == 404)
        }
    }

    @Test func idempotentReplayReturnsTheFirstAnswer() async throws {
        try await withWorldlineSandbox { sandbox in
            let first = try await sandbox.m1.createPayment(
                card: WorldlineDirectTestCard.authorised, idempotenceKey: "idem-1")
            #expect(first.headers["x-gcs-idempotence-request-timestamp"] == nil)
            let replay = try await sandbox.m1.createPayment(
                card: WorldlineDirectTestCard.authorised, idempotenceKey: "idem-1")
            #expect(replay.status == first.status)
            #expect(replay.body == first.body)
            let stamp = try #require(replay.headers["x-gcs-idempotence-request-timestamp"])
            #expect(Int64(stamp) == Int64(sandbox.clock.now.timeIntervalSince1970 * 1000))
            #expect(await sandbox.server.worldlineDirect.ledger().count == 1)
            let fresh = try await sandbox.m1.createPayment(
                card: WorldlineDirectTestCard.authorised, idempotenceKey: "idem-2")
            #expect(fresh.payment["id"] as? String != first.payment["id"] as? String)
        }
    }

    @Test func replayWhileTheFirstIsRunningGets409() async throws {
        try await withWorldlineSandbox(processingDelay: .milliseconds(1500)) { sandbox in
            let client = sandbox.m1
            // Both are sent at once; the sandbox marks a key running before its 1.5 s of processing, so
            // whichever reaches it second finds the first still running.
            async let slow = client.createPayment(card: WorldlineDirectTestCard.authorised, idempotenceKey: "idem-slow")
            let concurrent = try await client.createPayment(
                card: WorldlineDirectTestCard.authorised, idempotenceKey: "idem-slow")
            let first = try await slow
            // Whichever reached the sandbox second is told the first is still running.
            let answers = [first, concurrent]
            #expect(answers.filter { $0.status == 409 && $0.errorCode == "30001002" }.count == 1)
            #expect(answers.filter { $0.status == 201 }.count == 1)
            #expect(await sandbox.server.worldlineDirect.ledger().count == 1)
        }
    }

    @Test func faultInjectionAppliesPerMerchant() async throws {
        try await withWorldlineSandbox { sandbox in
            await sandbox.server.worldlineDirect.addFaults([
                SandboxFault(kind: .http503, pathPrefix: "/v2/MERCH1/payments", merchant: "MERCH1", count: 1)
            ])
            let failed = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.authorised)
            #expect(failed.status == 503)
            let next = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.authorised)
            #expect(next.status == 201)
        }
    }
}
