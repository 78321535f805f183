import Foundation
import TestWaiting
import Testing

/// A support operator acts on a tenant's payment through the admin API: refunds in part under an
/// Idempotency-Key (a retry refunds nothing more), syncs, and is named in the audit; a viewer may not.
@Suite(.serialized)
struct AdminPaymentActionTests {
    @Test func aSupportOperatorRefundsInPartOnceAndTheAuditNamesThem() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let (id, _) = try await DisputeEndToEndTests().paidCitconPayment(stack, m, amount: 5000)
            let support = try await OperatorAccessTests.add(stack, "Sam Support", "support")
            let viewer = try await OperatorAccessTests.add(stack, "Vera Viewer", "viewer")
            let base = "/admin/v1/tenants/\(m.tenantId)/payments/\(id)"

            let refused = try await stack.send(.POST, base + "/refunds", token: viewer.token, json: ["amount": 100])
            #expect(refused.status == 403 && refused.errorCode == "missing_permission")

            let key = ["Idempotency-Key": "console-refund-\(id)"]
            let first = try await stack.send(
                .POST, base + "/refunds", token: support.token, json: ["amount": 1200, "reason": "damaged"],
                headers: key)
            #expect(first.status == 201, "\(first.json)")
            let again = try await stack.send(
                .POST, base + "/refunds", token: support.token, json: ["amount": 1200, "reason": "damaged"],
                headers: key)
            #expect(again.status == 201 && again.json["id"] as? String == first.json["id"] as? String)
            let tooMuch = try await stack.send(.POST, base + "/refunds", token: support.token, json: ["amount": 4000])
            #expect(tooMuch.status == 422 && tooMuch.errorCode == "refund_exceeds_captured")

            let payment = try await stack.waitForPayment(id, key: m.apiKey) { ($0["amount_refunded"] as? Int) == 1200 }
            #expect(payment["status"] as? String == "succeeded")
            let synced = try await stack.send(.POST, base + "/sync", token: support.token)
            #expect(synced.status == 200 && synced.json["id"] as? String == id)
            #expect(
                try await stack.send(
                    .POST, "/admin/v1/tenants/\(m.tenantId)/payments/pay_nothing/sync", token: support.token
                )
                .status == 404)

            let audit = try await stack.send(.GET, "/admin/v1/audit?operator=\(support.id)", token: viewer.token)
            let actions = ((audit.json["data"] as? [[String: Any]]) ?? []).compactMap { $0["action"] as? String }
            #expect(actions.filter { $0 == "payment.refund" }.count == 1, "one refund, audited once: \(actions)")
            #expect(actions.contains("payment.sync"))
        }
    }
}
