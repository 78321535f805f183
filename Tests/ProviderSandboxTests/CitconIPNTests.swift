import Foundation
import ProviderSandbox
import Testing

@Suite struct CitconIPNTests {
    @Test func confirmSendsAFormIPNWhoseSignVerifies() async throws {
        try await withIPNReceiver { ipnURL, inbox in
            try await withSandbox { sandbox in
                let token = try await sandbox.citcon.token()
                let confirmed = try await sandbox.citcon.paidCharge(
                    token: token, reference: "ipn-1", amount: 1999, ipn: ipnURL)
                try await eventually("IPN delivered") { await inbox.messages.count == 1 }
                let message = try #require(await inbox.messages.first)
                #expect(message.contentType.hasPrefix("application/x-www-form-urlencoded"))
                #expect(message["id"] == confirmed.string("id"))
                #expect(message["transaction_type"] == "charge")
                #expect(message["reference"] == "ipn-1")
                #expect(message["amount"] == "1999")
                #expect(message["currency"] == "USD")
                #expect(message["status"] == "success")
                #expect(message["payment_method"] == "alipay")
                #expect(message["amount_captured"] == "1999")
                #expect(message["amount_refunded"] == "0")
                #expect(message["fields"]?.split(separator: ",").contains("time_completed") == true)
                #expect(message.signVerifies(secret: TestMerchants.m1.ipnSecret))
                #expect(!message.signVerifies(secret: TestMerchants.m2.ipnSecret))
            }
        }
    }

    @Test func badSignatureFaultSendsASignThatDoesNotVerify() async throws {
        try await withIPNReceiver { ipnURL, inbox in
            try await withSandbox { sandbox in
                await sandbox.server.citcon.addFaults([SandboxFault(kind: .badSignature, merchant: "m1", count: 1)])
                let token = try await sandbox.citcon.token()
                _ = try await sandbox.citcon.paidCharge(token: token, reference: "ipn-bad", amount: 500, ipn: ipnURL)
                try await eventually("bad IPN delivered") { await inbox.messages.count == 1 }
                _ = try await sandbox.citcon.paidCharge(token: token, reference: "ipn-good", amount: 500, ipn: ipnURL)
                try await eventually("good IPN delivered") { await inbox.messages.count == 2 }

                let messages = await inbox.messages
                let bad = try #require(messages.first { $0["reference"] == "ipn-bad" })
                let good = try #require(messages.first { $0["reference"] == "ipn-good" })
                #expect(bad["sign"]?.count == 64)
                #expect(!bad.signVerifies(secret: TestMerchants.m1.ipnSecret))
                #expect(good.signVerifies(secret: TestMerchants.m1.ipnSecret))
            }
        }
    }

    @Test func ipnIsRetriedUntilAcknowledged() async throws {
        try await withIPNReceiver(failFirst: 2) { ipnURL, inbox in
            try await withSandbox { sandbox in
                let token = try await sandbox.citcon.token()
                _ = try await sandbox.citcon.paidCharge(token: token, reference: "ipn-retry", amount: 700, ipn: ipnURL)
                try await eventually("IPN acknowledged") { await inbox.messages.count == 1 }
                #expect(await inbox.hits == 3)
                // The receiver holds the message before the sandbox has read its 200 and recorded the attempt.
                try await eventually("acknowledgement recorded") {
                    await sandbox.server.citcon.notificationAttempts().contains { $0.acknowledged }
                }
                let attempts = await sandbox.server.citcon.notificationAttempts()
                #expect(attempts.map(\.attempt) == [1, 2, 3])
                #expect(attempts.map(\.statusCode) == [500, 500, 200])
                #expect(attempts.map(\.acknowledged) == [false, false, true])
                #expect(await inbox.messages.first?.signVerifies(secret: TestMerchants.m1.ipnSecret) == true)

                let overHTTP = try await send(.get, sandbox.adminURL + "/notifications")
                #expect((overHTTP.json as? [Any])?.count == 3)
            }
        }
    }

    @Test func captureCancelAndRefundSendIPNs() async throws {
        try await withIPNReceiver { ipnURL, inbox in
            try await withSandbox { sandbox in
                let citcon = sandbox.citcon
                let token = try await citcon.token()
                let authorised = try await citcon.paidCharge(
                    token: token, reference: "ipn-2", amount: 1000, autoCapture: false, ipn: ipnURL)
                let id = try #require(authorised.string("id"))
                _ = try await citcon.capture(token: token, id: id, reference: "ipn-2-cap", amount: 1000)
                _ = try await citcon.refund(token: token, id: id, reference: "ipn-2-ref", amount: 250)
                let other = try await citcon.paidCharge(
                    token: token, reference: "ipn-3", amount: 300, autoCapture: false, ipn: ipnURL)
                _ = try await citcon.cancel(
                    token: token, id: try #require(other.string("id")), reference: "ipn-3-x", chargeReference: "ipn-3")
                try await eventually("five IPNs") { await inbox.messages.count == 5 }

                let messages = await inbox.messages
                let statuses = Set(messages.map { "\($0["transaction_type"] ?? "")/\($0["status"] ?? "")" })
                #expect(statuses == ["charge/authorized", "charge/captured", "refund/success", "charge/cancelled"])
                let refund = try #require(messages.first { $0["transaction_type"] == "refund" })
                #expect(refund["reference"] == "ipn-2-ref")
                #expect(refund["amount"] == "250")
                #expect(refund["amount_refunded"] == "250")
                #expect(messages.allSatisfy { $0.signVerifies(secret: TestMerchants.m1.ipnSecret) })
            }
        }
    }

    @Test func jsonEncodingOptionSendsAJSONIPN() async throws {
        try await withIPNReceiver { ipnURL, inbox in
            try await withSandbox(ipnEncoding: .json) { sandbox in
                let token = try await sandbox.citcon.token()
                _ = try await sandbox.citcon.paidCharge(token: token, reference: "ipn-json", amount: 1500, ipn: ipnURL)
                try await eventually("JSON IPN delivered") { await inbox.messages.count == 1 }
                let message = try #require(await inbox.messages.first)
                #expect(message.contentType.hasPrefix("application/json"))
                #expect(message["reference"] == "ipn-json")
                #expect(message.signVerifies(secret: TestMerchants.m1.ipnSecret))
            }
        }
    }
}
