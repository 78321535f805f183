import Foundation
import ProviderSandbox
import SwitchyardStore
import Testing

/// What the notification log keeps of Antom's token notifications, and where Antom sends shoppers back.
@Suite(.serialized)
struct NotificationSecrecyTests {
    /// The raw bodies of an account's verified notifications.
    static func bodies(_ stack: TestStack, account: String) async throws -> [String] {
        try await stack.runtime.pool.withConnection { c in
            try await c.query(
                "SELECT body FROM notifications WHERE account_id = $1::uuid AND verified ORDER BY id",
                [.text(account)]
            ).rows.map { String(decoding: try $0.bytes("body"), as: UTF8.self) }
        }
    }

    /// The value at `path` in a JSON body, if any.
    static func value(_ body: String, _ path: [String]) -> Any? {
        var current: Any? = try? JSONSerialization.jsonObject(with: Data(body.utf8))
        for key in path { current = (current as? [String: Any])?[key] }
        return current
    }

    @Test func antomWalletAndCardTokensAreNotStoredInTheNotificationLog() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant()
            let flows = AntomEndToEndTests()
            let (_, pm, token) = try await flows.firstPayment(stack, m, customer: "cust-1")
            _ = try await flows.waitForPaymentMethod(stack, m, customer: "cust-1", id: pm, status: "active")

            let session = try await stack.send(
                .POST, "/v1/customers/cust-9/vaulting-sessions", token: m.apiKey,
                json: ["return_url": "https://shop.example/vaulted", "country": "SG"])
            let next = try #require(session.json["next_action"] as? [String: Any])
            let vaulting = try #require((next["data"] as? [String: Any])?["vaultingSessionId"] as? String)
            let card = try #require(session.json["id"] as? String)
            _ = try await stack.sandbox.antom.completeVaulting(
                vaultingSessionId: vaulting,
                card: AntomCardInput(cardNumber: AntomTestCard.visa, expiryMonth: "12", expiryYear: "30", cvv: "123"))
            _ = try await flows.waitForPaymentMethod(stack, m, customer: "cust-9", id: card, status: "active")

            let bodies = try await Self.bodies(stack, account: m.accountId)
            #expect(!bodies.isEmpty)
            #expect(bodies.allSatisfy { !$0.contains(token) }, "the wallet access token is not kept")
            let authorization = bodies.filter { Self.value($0, ["authorizationNotifyType"]) != nil }
            #expect(!authorization.isEmpty)
            #expect(authorization.allSatisfy { Self.value($0, ["accessToken"]) as? String == "[redacted]" })
            let vaulted = bodies.filter { Self.value($0, ["notifyType"]) as? String == "VAULTING_RESULT" }
            #expect(vaulted.count == 1)
            #expect(
                vaulted.allSatisfy {
                    Self.value($0, ["paymentMethodDetail", "card", "cardToken"]) as? String == "[redacted]"
                })
        }
    }

    @Test func anAntomPaymentWithoutAReturnURLIsRefusedNotSentToTheNotificationURL() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant(options: [:])
            let reply = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey,
                json: ["amount": 900, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "no-return"])
            let body = String(decoding: reply.body, as: UTF8.self)
            #expect(reply.status == 422, "\(body)")
            #expect(reply.errorCode == "return_url_required", "\(body)")
            #expect(!body.contains("/notifications/"), "the notification URL is never shown")
            #expect(await stack.sandbox.antom.ledger(merchant: TestStack.antomClientId).isEmpty)

            let given = try await stack.createPayment(
                m,
                [
                    "amount": 900, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "with-return",
                    "return_url": "https://shop.example/back",
                ])
            #expect(given["status"] as? String == "requires_action")
        }
    }
}
