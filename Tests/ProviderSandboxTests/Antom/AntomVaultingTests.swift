import Foundation
import ProviderSandbox
import Testing

@Suite struct AntomVaultingTests {
    private static var visa: [String: Any] {
        [
            "cardNumber": AntomTestCard.visa, "expiryMonth": "3", "expiryYear": "2031", "cvv": "123",
            "holderName": "Test Holder",
        ]
    }

    @Test func vaultedCardIsNotifiedInquiredAndPays() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let created = try await client.call(
                    "vaults/createVaultingSession",
                    AntomBodies.vaultingSession(requestId: "v-1", notifyURL: hooks + "/notify"))
                #expect(created.resultCode == "SUCCESS")
                #expect(created.signatureValid == true)
                let sessionId = try #require(created.string("vaultingSessionId"))
                #expect(created.string("vaultingSessionData")?.isEmpty == false)
                #expect(
                    created.string("vaultingSessionExpiryTime") == isoTime(sandbox.clock.now.addingTimeInterval(1800)))
                let waiting = try await client.call("vaults/inquireVaulting", ["vaultingRequestId": "v-1"])
                #expect(waiting.string("vaultingStatus") == "PROCESSING")

                let vaulted = try await sandbox.adminPost("vaulting/\(sessionId)/complete", Self.visa)
                #expect(vaulted.status == 200)
                let cardToken = try #require(vaulted.object["cardToken"] as? String)
                #expect(vaulted.object["maskedCardNo"] as? String == "************0768")
                #expect(try await sandbox.adminPost("vaulting/\(sessionId)/complete", Self.visa).status == 409)

                let inquiry = try await client.call("vaults/inquireVaulting", ["vaultingRequestId": "v-1"])
                #expect(inquiry.string("vaultingStatus") == "SUCCESS")
                let card = inquiry.dict("paymentMethodDetail", "card")
                #expect(card["cardToken"] as? String == cardToken)
                #expect(card["brand"] as? String == "VISA")
                #expect(card["expiryMonth"] as? String == "03")
                #expect(card["expiryYear"] as? String == "31")
                #expect(inquiry.dict("paymentMethodDetail")["paymentMethodType"] as? String == "CARD")

                try await eventually("vaulting notification") { await !inbox.ofType("VAULTING_RESULT").isEmpty }
                let notice = try #require(await inbox.ofType("VAULTING_RESULT").first)
                #expect(notice.verifies(with: try await sandbox.antom.publicKey()))
                #expect(notice.string("vaultingRequestId") == "v-1")
                let noticeCard = (notice.object["paymentMethodDetail"] as? [String: Any])?["card"] as? [String: Any]
                #expect(noticeCard?["cardToken"] as? String == cardToken)
                #expect(noticeCard?["lastFour"] as? String == "0768")
                #expect((noticeCard?["fingerprint"] as? String)?.count == 64)

                let paid = try await client.call(
                    "payments/pay",
                    AntomBodies.cardPay(
                        requestId: "card-auto", amount: 4000, cardToken: cardToken, captureMode: "AUTOMATIC",
                        notifyURL: hooks + "/notify"))
                #expect(paid.resultCode == "SUCCESS")
                let auto = try await client.call("payments/inquiryPayment", ["paymentRequestId": "card-auto"])
                #expect(auto.string("paymentStatus") == "SUCCESS")
                #expect(await sandbox.antom.ledger().map(\.kind) == ["charge"])
            }
        }
    }

    @Test func manualCardPaymentIsAuthorisedThenCaptured() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let cardToken = try await Self.vault(sandbox, client, card: Self.visa, notifyURL: hooks + "/notify")
                let authorised = try await client.call(
                    "payments/pay",
                    AntomBodies.cardPay(
                        requestId: "card-manual", amount: 6000, cardToken: cardToken, captureMode: "MANUAL",
                        notifyURL: hooks + "/notify"))
                #expect(authorised.resultCode == "SUCCESS")
                let paymentId = try #require(authorised.string("paymentId"))
                let pending = try await client.call("payments/inquiryPayment", ["paymentId": paymentId])
                #expect(pending.string("paymentStatus") == "PENDING")
                let refundTooEarly = try await client.call(
                    "payments/refund",
                    ["refundRequestId": "early", "paymentId": paymentId, "refundAmount": AntomBodies.money(100)])
                #expect(refundTooEarly.resultCode == "ORDER_STATUS_INVALID")

                let capture: [String: Any] = [
                    "captureRequestId": "cap-1", "paymentId": paymentId, "captureAmount": AntomBodies.money(2500),
                    "isLastCapture": "false",
                ]
                let first = try await client.call("payments/capture", capture)
                #expect(first.resultCode == "SUCCESS")
                #expect(first.signatureValid == true)
                let captureId = try #require(first.string("captureId"))
                #expect(try await client.call("payments/capture", capture).body == first.body)
                let tooMuch = try await client.call(
                    "payments/capture",
                    ["captureRequestId": "cap-2", "paymentId": paymentId, "captureAmount": AntomBodies.money(3501)])
                #expect(tooMuch.resultCode == "CAPTURE_AMOUNT_EXCEED")
                let last = try await client.call(
                    "payments/capture",
                    [
                        "captureRequestId": "cap-3", "paymentId": paymentId, "captureAmount": AntomBodies.money(3000),
                        "isLastCapture": true,
                    ])
                #expect(last.resultCode == "SUCCESS")
                let after = try await client.call(
                    "payments/capture",
                    ["captureRequestId": "cap-4", "paymentId": paymentId, "captureAmount": AntomBodies.money(1)])
                #expect(after.resultCode == "ORDER_STATUS_INVALID")

                let done = try await client.call("payments/inquiryPayment", ["paymentId": paymentId])
                #expect(done.string("paymentStatus") == "SUCCESS")
                let transactions = done.object["transactions"] as? [[String: Any]] ?? []
                #expect(transactions.compactMap { $0["transactionId"] as? String }.first == captureId)
                #expect(transactions.count == 2)

                let ledger = await sandbox.antom.ledger()
                #expect(ledger.map(\.kind) == ["authorization", "capture", "capture", "void"])
                #expect(ledger.map(\.amount) == [6000, 2500, 3000, 500])
                try await eventually("capture notifications") { await inbox.ofType("CAPTURE_RESULT").count == 2 }
                let notice = try #require(
                    await inbox.ofType("CAPTURE_RESULT").first { $0.string("captureId") == captureId })
                #expect(notice.string("captureRequestId") == "cap-1")
                #expect(notice.verifies(with: try await sandbox.antom.publicKey()))

                let refunded = try await client.call(
                    "payments/refund",
                    [
                        "refundRequestId": "after-capture", "paymentId": paymentId,
                        "refundAmount": AntomBodies.money(5500),
                    ])
                #expect(refunded.resultCode == "SUCCESS")
            }
        }
    }

    @Test func manualAuthorisationCanBeCancelled() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let cardToken = try await Self.vault(sandbox, client, card: Self.visa, notifyURL: "http://127.0.0.1:9/v")
            let authorised = try await client.call(
                "payments/pay",
                AntomBodies.cardPay(
                    requestId: "void-1", amount: 800, cardToken: cardToken, captureMode: "MANUAL", notifyURL: nil))
            #expect(try await client.call("payments/cancel", ["paymentRequestId": "void-1"]).resultCode == "SUCCESS")
            let inquiry = try await client.call(
                "payments/inquiryPayment", ["paymentId": authorised.string("paymentId") ?? ""])
            #expect(inquiry.string("paymentStatus") == "CANCELLED")
            #expect(await sandbox.antom.ledger().map(\.kind) == ["authorization", "void"])
        }
    }

    @Test func failureCardIsNotVaulted() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let created = try await client.call(
                    "vaults/createVaultingSession",
                    AntomBodies.vaultingSession(requestId: "v-fail", notifyURL: hooks + "/notify"))
                let sessionId = try #require(created.string("vaultingSessionId"))
                let completion = try await sandbox.antom.completeVaulting(
                    vaultingSessionId: sessionId,
                    card: AntomCardInput(cardNumber: AntomTestCard.failure, expiryMonth: "12", expiryYear: "30"))
                #expect(completion.vaultingStatus == "FAIL")
                #expect(completion.cardToken == nil)
                let inquiry = try await client.call("vaults/inquireVaulting", ["vaultingRequestId": "v-fail"])
                #expect(inquiry.string("vaultingStatus") == "FAIL")
                #expect(inquiry.object["paymentMethodDetail"] == nil)
                try await eventually("vaulting notification") { await !inbox.ofType("VAULTING_RESULT").isEmpty }
                let notice = try #require(await inbox.ofType("VAULTING_RESULT").first)
                #expect(notice.result["resultStatus"] as? String == "F")
            }
        }
    }

    @Test func failureCardMayVaultAndThenDecline() async throws {
        try await withAntomSandbox(failureCardVaults: true) { sandbox in
            let client = try await sandbox.client()
            let failure: [String: Any] = [
                "cardNumber": AntomTestCard.failure, "expiryMonth": "12", "expiryYear": "30", "cvv": "321",
            ]
            let cardToken = try await Self.vault(sandbox, client, card: failure, notifyURL: "http://127.0.0.1:9/v")
            let declined = try await client.call(
                "payments/pay",
                AntomBodies.cardPay(
                    requestId: "risk-1", amount: 1000, cardToken: cardToken, captureMode: "AUTOMATIC", notifyURL: nil))
            #expect(declined.resultStatus == "F")
            #expect(declined.resultCode == "RISK_REJECT")
            let unknownCard = try await client.call(
                "payments/pay",
                AntomBodies.cardPay(
                    requestId: "risk-2", amount: 1000, cardToken: "ALIPAYnothing", captureMode: "AUTOMATIC",
                    notifyURL: nil))
            #expect(unknownCard.resultCode == "INVALID_ACCESS_TOKEN")
            #expect(await sandbox.antom.ledger().isEmpty)
        }
    }

    @Test func vaultingErrors() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let unknown = try await client.call("vaults/inquireVaulting", ["vaultingRequestId": "nothing"])
            #expect(unknown.resultCode == "VAULTING_NOT_EXIST")
            #expect(unknown.signatureValid == true)
            var body = AntomBodies.vaultingSession(requestId: "v-err", notifyURL: "http://127.0.0.1:9/v")
            body["paymentMethodType"] = "GCASH"
            #expect(try await client.call("vaults/createVaultingSession", body).resultCode == "PARAM_ILLEGAL")
            body["paymentMethodType"] = "CARD"
            let created = try await client.call("vaults/createVaultingSession", body)
            let sessionId = try #require(created.string("vaultingSessionId"))
            let badCard = try await sandbox.adminPost(
                "vaulting/\(sessionId)/complete",
                ["cardNumber": "4054695723100769", "expiryMonth": "12", "expiryYear": "30"])
            #expect(badCard.status == 400)
            #expect(badCard.object["code"] as? String == "CARD_INVALID")
            sandbox.clock.advance(by: 1801)
            let late = try await sandbox.adminPost("vaulting/\(sessionId)/complete", Self.visa)
            #expect(late.status == 409)
            #expect(late.object["code"] as? String == "SESSION_EXPIRED")
            let expired = try await client.call("vaults/inquireVaulting", ["vaultingRequestId": "v-err"])
            #expect(expired.string("vaultingStatus") == "FAIL")
            #expect(try await sandbox.adminPost("vaulting/nope/complete", Self.visa).status == 404)
        }
    }

    @Test func brandComesFromTheBin() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            for (index, (pan, brand)) in [(AntomTestCard.mastercard, "MASTERCARD"), ("9490220011669217", "HYUNDAI")]
                .enumerated()
            {
                let created = try await client.call(
                    "vaults/createVaultingSession",
                    AntomBodies.vaultingSession(requestId: "brand-\(index)", notifyURL: "http://127.0.0.1:9/v"))
                let completion = try await sandbox.antom.completeVaulting(
                    vaultingSessionId: created.string("vaultingSessionId") ?? "",
                    card: AntomCardInput(cardNumber: pan, expiryMonth: "01", expiryYear: "29"))
                #expect(completion.brand == brand)
                #expect(completion.maskedCardNo == "************" + pan.suffix(4))
            }
        }
    }

    /// Creates a vaulting session, completes it with `card` and returns the card token.
    static func vault(
        _ sandbox: AntomTestSandbox, _ client: AntomTestClient, card: [String: Any], notifyURL: String
    ) async throws -> String {
        let created = try await client.call(
            "vaults/createVaultingSession",
            AntomBodies.vaultingSession(requestId: "vault-\(UUID().uuidString)", notifyURL: notifyURL))
        let sessionId = try #require(created.string("vaultingSessionId"))
        let vaulted = try await sandbox.adminPost("vaulting/\(sessionId)/complete", card)
        return try #require(vaulted.object["cardToken"] as? String)
    }
}
