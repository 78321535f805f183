import Foundation
import ProviderSandbox
import SwitchyardCrypto
import Testing

/// A verified notification whose report the payment's state rejects is neither applied nor lost: it is
/// kept with its reason, listed for review, acknowledged, and never applied when the provider sends it again.
@Suite(.serialized)
struct NotificationReviewTests {
    /// A Citcon IPN signed over `fields` with the merchant's IPN secret.
    static func signedIPN(_ fields: [(String, String)]) -> Data {
        let names = fields.map(\.0).joined(separator: ",")
        let signed = (fields + [("fields", names)]).sorted { $0.0 < $1.0 }
        let content = signed.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let sign = Hex.encode(SHA2.sha256(Array((content + "&secret=" + TestStack.citconMerchant.ipnSecret).utf8)))
        return Data((fields.map { "\($0.0)=\($0.1)" }.joined(separator: "&") + "&fields=\(names)&sign=\(sign)").utf8)
    }

    @Test func aCapturedAmountAboveThePaymentIsKeptForReviewAndNotApplied() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let (id, attempt, charge) = try await NotificationReplayTests.paidPayment(stack, m)
            let body = Self.signedIPN([
                ("id", charge.id), ("transaction_type", "charge"), ("reference", attempt), ("amount", "1234"),
                ("currency", "USD"), ("status", "success"), ("amount_captured", "999999"),
            ])
            let first = try await NotificationReplayTests.post(stack, m, body)
            #expect(first.status == 200, "acknowledged: \(String(decoding: first.body, as: UTF8.self))")
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(payment["status"] as? String == "requires_action", "not applied: \(payment)")
            #expect(payment["amount_captured"] as? Int == 0)

            let review = try await stack.send(.GET, "/admin/v1/payments/review", token: stack.operatorToken)
            #expect(review.status == 200)
            #expect((review.json["data"] as? [[String: Any]])?.isEmpty == true, "the payments' section is unchanged")
            let listed = try #require(review.json["notifications"] as? [[String: Any]])
            #expect(listed.count == 1, "\(review.json)")
            let entry = try #require(listed.first)
            #expect(entry["kind"] as? String == "notification_rejected")
            #expect(entry["reason"] as? String == "amount_out_of_range")
            #expect(entry["payment_id"] as? String == id)
            #expect(entry["tenant_id"] as? String == m.tenantId)
            #expect(entry["provider_account_id"] as? String == m.accountId)
            #expect(entry["notification_id"] is Int)
            #expect(entry["at"] is String)
            #expect((entry["message"] as? String)?.contains("999999") == true)

            // The provider sends it again: acknowledged, recorded once, still not applied.
            let again = try await NotificationReplayTests.post(stack, m, body)
            #expect(again.status == 200)
            #expect(try await NotificationReplayTests.verified(stack, account: m.accountId).map(\.0) == [true])
            let still = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(still["status"] as? String == "requires_action")
            let relisted = try await stack.send(.GET, "/admin/v1/payments/review", token: stack.operatorToken)
            #expect((relisted.json["notifications"] as? [[String: Any]])?.count == 1)
            let other = try await stack.send(
                .POST, "/admin/v1/tenants", token: stack.operatorToken, json: ["name": "O"])
            let otherId = try #require(other.json["id"] as? String)
            let scoped = try await stack.send(
                .GET, "/admin/v1/payments/review?tenant=\(otherId)", token: stack.operatorToken)
            #expect((scoped.json["notifications"] as? [[String: Any]])?.isEmpty == true, "filtered by tenant")
            let unknown = try await stack.send(
                .GET, "/admin/v1/payments/review?tenant=\(UUID().uuidString.lowercased())", token: stack.operatorToken)
            #expect(unknown.status == 400 && unknown.errorCode == "invalid_parameter", "never every tenant's")

            // The provider's own answer to an inquiry still settles the payment.
            let synced = try await stack.send(.POST, "/v1/payments/\(id)/sync", token: m.apiKey)
            #expect(synced.json["status"] as? String == "succeeded")
        }
    }
}
