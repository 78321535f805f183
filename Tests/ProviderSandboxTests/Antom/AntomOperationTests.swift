import Foundation
import ProviderSandbox
import Testing

@Suite struct AntomOperationTests {
    @Test func refundsUpToThePaidAmountAndCanBeInquired() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let token = try await AntomEasySafePayTests.token(sandbox, client, notifyURL: hooks + "/notify")
                let paid = try await client.call(
                    "payments/pay",
                    AntomBodies.walletPay(
                        requestId: "r-pay", amount: 5000, accessToken: token, notifyURL: hooks + "/notify"))
                let paymentId = try #require(paid.string("paymentId"))
                let refund = try await client.call(
                    "payments/refund",
                    [
                        "refundRequestId": "r-1", "paymentId": paymentId, "refundAmount": AntomBodies.money(2000),
                        "refundReason": "customer asked",
                    ])
                #expect(refund.resultCode == "SUCCESS")
                #expect(refund.signatureValid == true)
                let refundId = try #require(refund.string("refundId"))
                #expect(refund.dict("refundAmount")["value"] as? String == "2000")
                let tooMuch = try await client.call(
                    "payments/refund",
                    ["refundRequestId": "r-2", "paymentId": paymentId, "refundAmount": AntomBodies.money(3001)])
                #expect(tooMuch.resultCode == "REFUND_AMOUNT_EXCEED")
                let rest = try await client.call(
                    "payments/refund",
                    ["refundRequestId": "r-3", "paymentId": paymentId, "refundAmount": AntomBodies.money(3000)])
                #expect(rest.resultCode == "SUCCESS")
                let unknown = try await client.call(
                    "payments/refund",
                    ["refundRequestId": "r-4", "paymentId": "nope", "refundAmount": AntomBodies.money(1)])
                #expect(unknown.resultCode == "ORDER_NOT_EXIST")

                let byRequest = try await client.call("payments/inquiryRefund", ["refundRequestId": "r-1"])
                #expect(byRequest.string("refundStatus") == "SUCCESS")
                #expect(byRequest.string("refundId") == refundId)
                let byId = try await client.call("payments/inquiryRefund", ["refundId": refundId])
                #expect(byId.string("refundRequestId") == "r-1")
                let missing = try await client.call("payments/inquiryRefund", ["refundRequestId": "r-2"])
                #expect(missing.resultCode == "ORDER_NOT_EXIST")

                let inquiry = try await client.call("payments/inquiryPayment", ["paymentId": paymentId])
                let transactions = inquiry.object["transactions"] as? [[String: Any]] ?? []
                #expect(transactions.map { $0["transactionType"] as? String } == ["REFUND", "REFUND"])
                #expect(transactions.first?["transactionRequestId"] as? String == "r-1")

                try await eventually("refund notifications") { await inbox.ofType("REFUND_RESULT").count == 2 }
                let notice = try #require(
                    await inbox.ofType("REFUND_RESULT").first { $0.string("refundId") == refundId })
                #expect(notice.string("refundStatus") == "SUCCESS")
                #expect(notice.string("paymentId") == paymentId)
                #expect(notice.verifies(with: try await sandbox.antom.publicKey()))
                let refunds = await sandbox.antom.ledger().filter { $0.kind == "refund" }
                #expect(refunds.map(\.amount) == [2000, 3000])
                #expect(refunds.first?.operationId == refundId)
            }
        }
    }

    @Test func replaysReturnTheFirstAnswerAndDifferentBodiesAreInconsistent() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let token = try await AntomEasySafePayTests.token(sandbox, client, notifyURL: "http://127.0.0.1:9/n")
            let body = AntomBodies.walletPay(requestId: "idem-1", amount: 1200, accessToken: token)
            let first = try await client.call("payments/pay", body)
            sandbox.clock.advance(by: 5)
            let replay = try await client.call("payments/pay", body)
            #expect(first.resultCode == "SUCCESS")
            #expect(replay.body == first.body)
            #expect(replay.signatureValid == true)
            #expect(replay.headers["response-time"] != first.headers["response-time"])
            #expect(await sandbox.antom.ledger().filter { $0.paymentId == first.string("paymentId") }.count == 1)

            var changed = body
            changed["paymentAmount"] = AntomBodies.money(1300)
            let inconsistent = try await client.call("payments/pay", changed)
            #expect(inconsistent.resultStatus == "F")
            #expect(inconsistent.resultCode == "REPEAT_REQ_INCONSISTENT")
            #expect(inconsistent.signatureValid == true)

            let paymentId = try #require(first.string("paymentId"))
            let refund: [String: Any] = [
                "refundRequestId": "idem-r", "paymentId": paymentId, "refundAmount": AntomBodies.money(200),
            ]
            let refunded = try await client.call("payments/refund", refund)
            let refundReplay = try await client.call("payments/refund", refund)
            #expect(refundReplay.body == refunded.body)
            var otherRefund = refund
            otherRefund["refundAmount"] = AntomBodies.money(100)
            #expect(try await client.call("payments/refund", otherRefund).resultCode == "REPEAT_REQ_INCONSISTENT")
            #expect(await sandbox.antom.ledger().filter { $0.kind == "refund" }.count == 1)

            // A session's paymentRequestId cannot be reused by pay.
            let session = AntomBodies.session(requestId: "idem-s", amount: 100, notifyURL: "http://127.0.0.1:9/n")
            let created = try await client.call("payments/createPaymentSession", session)
            let sessionReplay = try await client.call("payments/createPaymentSession", session)
            #expect(sessionReplay.string("paymentSessionId") == created.string("paymentSessionId"))
            let reused = try await client.call(
                "payments/pay", AntomBodies.walletPay(requestId: "idem-s", amount: 100, accessToken: token))
            #expect(reused.resultCode == "REPEAT_REQ_INCONSISTENT")
        }
    }

    @Test func cancelReleasesProcessingAndRecentPayments() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let token = try await AntomEasySafePayTests.token(sandbox, client, notifyURL: "http://127.0.0.1:9/n")
            let processing = try await client.call(
                "payments/pay", AntomBodies.walletPay(requestId: "c-408", amount: 2408, accessToken: token))
            let cancelled = try await client.call("payments/cancel", ["paymentRequestId": "c-408"])
            #expect(cancelled.resultCode == "SUCCESS")
            #expect(cancelled.string("paymentId") == processing.string("paymentId"))
            #expect(cancelled.string("cancelTime") != nil)
            let twice = try await client.call("payments/cancel", ["paymentRequestId": "c-408"])
            #expect(twice.resultCode == "SUCCESS")
            #expect(twice.string("cancelTime") == cancelled.string("cancelTime"))
            let inquiry = try await client.call("payments/inquiryPayment", ["paymentRequestId": "c-408"])
            #expect(inquiry.string("paymentStatus") == "CANCELLED")
            let processingId = try #require(processing.string("paymentId"))
            #expect(try await sandbox.adminPost("payments/\(processingId)/resolve").status == 409)

            let paid = try await client.call(
                "payments/pay", AntomBodies.walletPay(requestId: "c-paid", amount: 2000, accessToken: token))
            let paidId = try #require(paid.string("paymentId"))
            sandbox.clock.advance(by: 3600)
            let reversed = try await client.call("payments/cancel", ["paymentId": paidId])
            #expect(reversed.resultCode == "SUCCESS")
            #expect(await sandbox.antom.payment(id: paidId)?.status == .cancelled)
            let voids = await sandbox.antom.ledger().filter { $0.kind == "void" }
            #expect(voids.map(\.paymentId) == [paidId])
            #expect(voids.map(\.amount) == [2000])

            let old = try await client.call(
                "payments/pay", AntomBodies.walletPay(requestId: "c-old", amount: 2100, accessToken: token))
            sandbox.clock.advance(by: 24 * 3600 + 1)
            let late = try await client.call("payments/cancel", ["paymentId": old.string("paymentId") ?? ""])
            #expect(late.resultCode == "CANCEL_WINDOW_EXCEED")
            let declined = try await client.call(
                "payments/pay", AntomBodies.walletPay(requestId: "c-402", amount: 2402, accessToken: token))
            #expect(
                try await client.call("payments/cancel", ["paymentId": declined.string("paymentId") ?? ""]).resultCode
                    == "ORDER_IS_CLOSED")
            #expect(try await client.call("payments/cancel", ["paymentId": "nope"]).resultCode == "ORDER_NOT_EXIST")
        }
    }

    @Test func cancellingASessionPaymentClosesTheSession() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let session = try await client.call(
                "payments/createPaymentSession",
                AntomBodies.session(requestId: "cs-1", amount: 100, notifyURL: "http://127.0.0.1:9/n"))
            let sessionId = try #require(session.string("paymentSessionId"))
            #expect(try await client.call("payments/cancel", ["paymentRequestId": "cs-1"]).resultCode == "SUCCESS")
            let late = try await sandbox.adminPost("sessions/\(sessionId)/complete")
            #expect(late.status == 409)
            #expect(late.object["code"] as? String == "SESSION_CLOSED")
        }
    }

    @Test func ledgerIsServedAndFilteredByMerchant() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            _ = try await AntomEasySafePayTests.token(sandbox, client, notifyURL: "http://127.0.0.1:9/n")
            let all = try await send(.get, sandbox.admin + "/ledger")
            let entries = all.json as? [[String: Any]] ?? []
            #expect(entries.count == 1)
            #expect(entries.first?["kind"] as? String == "charge")
            #expect(entries.first?["merchant"] as? String == sandbox.clientId)
            #expect(entries.first?["amount"] as? Int == 1000)
            let other = try await send(.get, sandbox.admin + "/ledger?merchant=SANDBOX_OTHER")
            #expect((other.json as? [Any])?.isEmpty == true)
            let paymentId = try #require(entries.first?["paymentId"] as? String)
            let payment = try await send(.get, sandbox.admin + "/payments/" + paymentId)
            #expect(payment.object["status"] as? String == "SUCCESS")
            #expect(try await send(.get, sandbox.admin + "/payments/nope").status == 404)
        }
    }
}
