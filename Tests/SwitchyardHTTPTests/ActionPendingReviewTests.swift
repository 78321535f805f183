import Foundation
import SwitchyardCore
import Testing

/// A payment flagged for review while it still waits for the customer's action is listed beside the unknown
/// ones, under its own kind, and keeps its status.
@Suite(.serialized)
struct ActionPendingReviewTests {
    @Test func aPaymentStillWaitingAtTheHorizonIsListedAsActionPending() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let tenant = try #require(UUID(uuidString: m.tenantId))
            let created = try await CitconEndToEndTests().payment(stack, m)
            let id = try #require(created["id"] as? String)
            #expect(created["status"] as? String == "requires_action")
            let since = Date(timeIntervalSince1970: 1_900_000_000)
            try await stack.runtime.store.payments.transition(tenant: tenant, paymentId: id, with: PaymentChanges()) {
                $0.resolution = Payment.Resolution(since: since, reviewRequired: true)
            }
            let review = try await stack.send(.GET, "/admin/v1/payments/review", token: stack.operatorToken)
            #expect(review.status == 200)
            let listed = try #require(review.json["data"] as? [[String: Any]])
            #expect(listed.count == 1, "\(review.json)")
            #expect(listed.first?["kind"] as? String == "payment_action_pending")
            #expect(listed.first?["id"] as? String == id)
            #expect(listed.first?["unknown_since"] as? String == "2030-03-17T17:46:40Z")
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(payment["status"] as? String == "requires_action")
        }
    }
}
