import Foundation
import ProviderSandbox
import Testing

@Suite struct AntomEasySafePayTests {
    @Test func firstPaymentCreatesATokenThatPaysLater() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let session = try await client.call(
                    "payments/createPaymentSession",
                    AntomBodies.session(requestId: "first-1", amount: 1500, notifyURL: hooks + "/notify"))
                #expect(session.resultCode == "SUCCESS")
                #expect(session.signatureValid == true)
                let sessionId = try #require(session.string("paymentSessionId"))
                #expect(session.string("paymentSessionData")?.isEmpty == false)
                #expect(session.string("normalUrl")?.hasSuffix("/_sandbox/antom/sessions/" + sessionId) == true)
                let expiry = try #require(session.string("paymentSessionExpiryTime"))
                #expect(expiry == isoTime(sandbox.clock.now.addingTimeInterval(3600)))

                let waiting = try await client.call("payments/inquiryPayment", ["paymentRequestId": "first-1"])
                #expect(waiting.string("paymentStatus") == "PROCESSING")

                let completed = try await sandbox.adminPost("sessions/\(sessionId)/complete", ["approve": true])
                #expect(completed.status == 200)
                let token = try #require(completed.object["accessToken"] as? String)
                #expect(completed.object["status"] as? String == "SUCCESS")
                let paymentId = try #require(completed.object["paymentId"] as? String)

                let paid = try await client.call(
                    "payments/pay",
                    AntomBodies.walletPay(
                        requestId: "later-1", amount: 2500, accessToken: token, notifyURL: hooks + "/notify"))
                #expect(paid.resultStatus == "S")
                #expect(paid.resultCode == "SUCCESS")
                #expect(paid.signatureValid == true)
                #expect(paid.dict("paymentAmount")["value"] as? String == "2500")
                #expect(paid.string("paymentTime") != nil)
                let laterId = try #require(paid.string("paymentId"))

                let first = try await client.call("payments/inquiryPayment", ["paymentId": paymentId])
                #expect(first.string("paymentStatus") == "SUCCESS")
                #expect(first.string("paymentRequestId") == "first-1")

                try await eventually("notifications") { await inbox.received.count == 3 }
                let antomKey = try await sandbox.antom.publicKey()
                for notification in await inbox.received {
                    #expect(notification.verifies(with: antomKey))
                    #expect(notification.clientId == sandbox.clientId)
                    #expect(notification.path == "/antom/notify")
                }
                let created = try #require(await inbox.authorizations("TOKEN_CREATED").first)
                #expect(created.string("accessToken") == token)
                #expect(created.string("authState") == "auth-state-1")
                #expect(created.string("userLoginId") == "user@example.com")
                let results = await inbox.ofType("PAYMENT_RESULT")
                #expect(Set(results.compactMap { $0.string("paymentId") }) == [paymentId, laterId])
                #expect(results.allSatisfy { $0.result["resultStatus"] as? String == "S" })

                let ledger = await sandbox.antom.ledger()
                #expect(ledger.map(\.kind) == ["charge", "charge"])
                #expect(ledger.map(\.amount) == [1500, 2500])
                #expect(ledger.allSatisfy { $0.merchant == sandbox.clientId && $0.currency == "USD" })
            }
        }
    }

    @Test func authorizationGoesToTheConfiguredURL() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox(authorizationNotifyURL: hooks + "/auth") { sandbox in
                let client = try await sandbox.client()
                let session = try await client.call(
                    "payments/createPaymentSession",
                    AntomBodies.session(requestId: "auth-1", amount: 700, notifyURL: hooks + "/notify"))
                let sessionId = try #require(session.string("paymentSessionId"))
                let completion = try await sandbox.antom.completeSession(paymentSessionId: sessionId)
                #expect(completion.accessToken != nil)
                try await eventually("notifications") { await inbox.received.count == 2 }
                #expect(await inbox.authorizations("TOKEN_CREATED").first?.path == "/antom/auth")
                #expect(await inbox.ofType("PAYMENT_RESULT").first?.path == "/antom/notify")
            }
        }
    }

    @Test func sessionWithoutAgreementCreatesNoToken() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let session = try await client.call(
                    "payments/createPaymentSession",
                    AntomBodies.session(requestId: "plain-1", amount: 900, notifyURL: hooks + "/notify", authState: nil)
                )
                let sessionId = try #require(session.string("paymentSessionId"))
                let completion = try await sandbox.antom.completeSession(paymentSessionId: sessionId)
                #expect(completion.accessToken == nil)
                #expect(completion.status == .success)
                try await eventually("payment result") { await inbox.received.count == 1 }
                #expect(await inbox.received.first?.notifyType == "PAYMENT_RESULT")
            }
        }
    }

    @Test func rejectedSessionFailsWithoutToken() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let session = try await client.call(
                    "payments/createPaymentSession",
                    AntomBodies.session(requestId: "reject-1", amount: 900, notifyURL: hooks + "/notify"))
                let sessionId = try #require(session.string("paymentSessionId"))
                let rejected = try await sandbox.adminPost("sessions/\(sessionId)/complete", ["approve": false])
                #expect(rejected.object["status"] as? String == "FAIL")
                #expect(rejected.object["resultCode"] as? String == "USER_PAYMENT_VERIFICATION_FAILED")
                #expect(rejected.object["accessToken"] == nil)
                try await eventually("payment result") { await inbox.received.count == 1 }
                let notification = try #require(await inbox.received.first)
                #expect(notification.result["resultStatus"] as? String == "F")
                #expect(notification.result["resultCode"] as? String == "USER_PAYMENT_VERIFICATION_FAILED")
                let again = try await sandbox.adminPost("sessions/\(sessionId)/complete")
                #expect(again.status == 409)
                #expect(again.object["code"] as? String == "SESSION_COMPLETED")
                #expect(await sandbox.antom.ledger().isEmpty)
            }
        }
    }

    @Test func sessionExpiryIsAtMostOneHourAndEnforced() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let now = sandbox.clock.now
            for expiry in [now.addingTimeInterval(3601), now.addingTimeInterval(-5)] {
                let refused = try await client.call(
                    "payments/createPaymentSession",
                    AntomBodies.session(
                        requestId: "exp-\(expiry.timeIntervalSince1970)", amount: 100,
                        notifyURL: "http://127.0.0.1:9/n",
                        expiry: isoTime(expiry)))
                #expect(refused.resultCode == "PARAM_ILLEGAL")
                #expect(refused.signatureValid == true)
            }
            let session = try await client.call(
                "payments/createPaymentSession",
                AntomBodies.session(
                    requestId: "exp-ok", amount: 100, notifyURL: "http://127.0.0.1:9/n",
                    expiry: isoTime(now.addingTimeInterval(600))))
            let sessionId = try #require(session.string("paymentSessionId"))
            #expect(session.string("paymentSessionExpiryTime") == isoTime(now.addingTimeInterval(600)))
            sandbox.clock.advance(by: 601)
            let late = try await sandbox.adminPost("sessions/\(sessionId)/complete")
            #expect(late.status == 409)
            #expect(late.object["code"] as? String == "SESSION_EXPIRED")
            let closed = try await client.call("payments/inquiryPayment", ["paymentRequestId": "exp-ok"])
            #expect(closed.string("paymentStatus") == "FAIL")
            #expect(closed.string("paymentResultCode") == "ORDER_IS_CLOSED")
        }
    }

    @Test func adminExpiryClosesOpenSessions() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let session = try await client.call(
                "payments/createPaymentSession",
                AntomBodies.session(requestId: "exp-all", amount: 100, notifyURL: "http://127.0.0.1:9/n"))
            let sessionId = try #require(session.string("paymentSessionId"))
            let expired = try await send(.post, sandbox.admin + "/sessions/expire")
            #expect(expired.status == 204)
            await #expect(throws: AntomSandboxError.self) {
                try await sandbox.antom.completeSession(paymentSessionId: sessionId)
            }
            let unknown = try await sandbox.adminPost("sessions/nope/complete")
            #expect(unknown.status == 404)
        }
    }

    @Test func magicAmountsDeclineOrStayProcessingUntilResolved() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let token = try await Self.token(sandbox, client, notifyURL: hooks + "/notify")
                let declined = try await client.call(
                    "payments/pay",
                    AntomBodies.walletPay(
                        requestId: "m-402", amount: 3402, accessToken: token, notifyURL: hooks + "/notify"))
                #expect(declined.resultStatus == "F")
                #expect(declined.resultCode == "USER_BALANCE_NOT_ENOUGH")
                #expect(declined.string("paymentTime") == nil)
                let processing = try await client.call(
                    "payments/pay",
                    AntomBodies.walletPay(
                        requestId: "m-408", amount: 3408, accessToken: token, notifyURL: hooks + "/notify"))
                #expect(processing.resultStatus == "U")
                #expect(processing.resultCode == "PAYMENT_IN_PROCESS")
                let paymentId = try #require(processing.string("paymentId"))
                let pending = try await client.call("payments/inquiryPayment", ["paymentRequestId": "m-408"])
                #expect(pending.string("paymentStatus") == "PROCESSING")

                let resolved = try await sandbox.adminPost("payments/\(paymentId)/resolve", ["approved": true])
                #expect(resolved.object["status"] as? String == "SUCCESS")
                let again = try await sandbox.adminPost("payments/\(paymentId)/resolve", ["approved": true])
                #expect(again.status == 409)
                let done = try await client.call("payments/inquiryPayment", ["paymentId": paymentId])
                #expect(done.string("paymentStatus") == "SUCCESS")
                try await eventually("resolution notified") {
                    await inbox.ofType("PAYMENT_RESULT").contains { $0.string("paymentId") == paymentId }
                }
                let declineNotice = await inbox.ofType("PAYMENT_RESULT").first {
                    $0.string("paymentRequestId") == "m-402"
                }
                #expect(declineNotice?.result["resultCode"] as? String == "USER_BALANCE_NOT_ENOUGH")
                #expect(await sandbox.antom.ledger().map(\.amount) == [1000, 3408])
            }
        }
    }

    @Test func cancelledTokenIsNotifiedAndRefused() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let token = try await Self.token(sandbox, client, notifyURL: hooks + "/notify")
                let cancelled = try await sandbox.adminPost("tokens/\(token)/cancel")
                #expect(cancelled.object["status"] as? String == "CANCELED")
                #expect(try await sandbox.adminPost("tokens/\(token)/cancel").status == 409)
                #expect(await sandbox.antom.accessToken(token)?.status == .canceled)
                #expect(await sandbox.antom.accessTokens(authState: "auth-state-1").map(\.accessToken) == [token])
                try await eventually("token cancelled") { await !inbox.authorizations("TOKEN_CANCELED").isEmpty }
                let notice = try #require(await inbox.authorizations("TOKEN_CANCELED").first)
                #expect(notice.string("accessToken") == token)
                #expect(notice.string("authState") == "auth-state-1")
                #expect(notice.string("reason")?.isEmpty == false)
                #expect(notice.verifies(with: try await sandbox.antom.publicKey()))

                let refused = try await client.call(
                    "payments/pay", AntomBodies.walletPay(requestId: "after-cancel", amount: 500, accessToken: token))
                #expect(refused.resultCode == "INVALID_ACCESS_TOKEN")
                let unknown = try await client.call(
                    "payments/pay", AntomBodies.walletPay(requestId: "unknown-token", amount: 500, accessToken: "AT0"))
                #expect(unknown.resultCode == "INVALID_ACCESS_TOKEN")
                let failed = try await client.call("payments/inquiryPayment", ["paymentRequestId": "unknown-token"])
                #expect(failed.string("paymentStatus") == "FAIL")
            }
        }
    }

    /// Creates and completes a session with an agreement; returns the access token.
    static func token(_ sandbox: AntomTestSandbox, _ client: AntomTestClient, notifyURL: String) async throws -> String
    {
        let session = try await client.call(
            "payments/createPaymentSession",
            AntomBodies.session(requestId: "token-\(UUID().uuidString)", amount: 1000, notifyURL: notifyURL))
        let sessionId = try #require(session.string("paymentSessionId"))
        let completion = try await sandbox.antom.completeSession(paymentSessionId: sessionId)
        return try #require(completion.accessToken)
    }
}
