import Foundation
import ProviderSandbox
import SwitchyardCrypto
import SwitchyardStore
import Testing

/// Provider notifications as they arrive: stored raw with the verification result, duplicates harmless,
/// an unverifiable one refused and answered by a sync, one about an unknown payment kept.
@Suite(.serialized)
struct InboundNotificationTests {
    /// The stored notifications of an account: (verified, failure reason, raw body).
    func stored(_ stack: TestStack, account: String) async throws -> [(Bool, String?, String)] {
        try await stack.runtime.pool.withConnection { c in
            try await c.query(
                "SELECT verified, failure_reason, body FROM notifications WHERE account_id = $1::uuid ORDER BY id",
                [.text(account)]
            ).rows.map { row in
                (
                    try row.bool("verified"), row.optionalString("failure_reason"),
                    String(decoding: try row.bytes("body"), as: UTF8.self)
                )
            }
        }
    }

    @Test func aForgedNotificationIsRefusedStoredAndAnsweredByASync() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let flows = CitconEndToEndTests()
            let created = try await flows.payment(stack, m)
            let id = try #require(created["id"] as? String)
            // The shopper pays, but the provider's own notification is lost.
            await stack.sandbox.citcon.faults.add([SandboxFault(kind: .dropNotification, count: 1)])
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(created), method: "alipay")
            #expect(
                try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json["status"] as? String
                    == "requires_action")

            // A forged notification claims a failure; it is refused, and the sync it triggers learns the truth.
            let forged =
                "id=1&transaction_type=charge&reference=x&amount=1&currency=USD&status=fail&sign=\(String(repeating: "0", count: 64))"
            let reply = try await stack.send(
                .POST, "/notifications/\(m.accountId)", raw: Data(forged.utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(reply.status == 401)
            let after = try await stack.waitForPayment(id, key: m.apiKey) {
                $0["status"] as? String != "requires_action"
            }
            #expect(after["status"] as? String == "succeeded", "the sync, not the forged body, decided")
            let rows = try await stored(stack, account: m.accountId)
            #expect(rows.count == 1)
            #expect(rows.first?.0 == false)
            #expect(rows.first?.1?.isEmpty == false, "the reason is kept")
            #expect(rows.first?.2 == forged, "stored raw")
        }
    }

    @Test func aVerifiedNotificationForAnUnknownPaymentIsKeptAndADuplicateIsHarmless() async throws {
        try await TestStack.with { stack in
            let m = try await stack.worldlineMerchant()
            let merchant = TestStack.worldlineMerchant
            let body = Data(
                """
                {"apiVersion":"v1","id":"evt-unknown-1","created":"2026-11-22T10:00:00.000+01:00",\
                "merchantId":"\(merchant.merchantId)","type":"payment.captured","payment":{"id":"9999999999_0",\
                "status":"CAPTURED","statusOutput":{"statusCategory":"COMPLETED","statusCode":9,"isCancellable":false,\
                "isRefundable":true,"isAuthorized":false},"paymentOutput":{"amountOfMoney":{"amount":100,\
                "currencyCode":"EUR"},"references":{"merchantReference":"nobody"}}}}
                """.utf8)
            let signature = Base64.encode(HMAC.sha256(key: merchant.webhookSecret, message: Array(body)))
            let headers = [
                "Content-Type": "application/json", "X-GCS-Signature": signature, "X-GCS-KeyId": merchant.webhookKeyId,
            ]
            let first = try await stack.send(.POST, "/notifications/\(m.accountId)", raw: body, headers: headers)
            #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            let second = try await stack.send(.POST, "/notifications/\(m.accountId)", raw: body, headers: headers)
            #expect(second.status == 200, "a duplicate is acknowledged again")
            let rows = try await stored(stack, account: m.accountId)
            #expect(rows.filter { $0.0 }.count == 1, "kept once for inspection: \(rows.map(\.0))")
            #expect(rows.first?.2 == String(decoding: body, as: UTF8.self))
            let payments = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            #expect((payments.json["data"] as? [[String: Any]])?.isEmpty == true, "nothing was invented")
            #expect(try await stack.send(.GET, "/health").status == 200)
        }
    }
}
