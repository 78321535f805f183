import Foundation
import ProviderKit
import SwitchyardCore
import Testing

@testable import SwitchyardStore

/// `transitionRefund`: the refund machine runs on the locked row, and what it decides is stored with the
/// payment's refunded total in the same transaction.
extension PostgresStoreTests {
    /// A succeeded payment of 500 with a reserved refund of 200; returns the tenant.
    func reservedRefund(_ store: PostgresStore) async throws -> UUID {
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        var p = payment(tenant, id: "pay_r")
        p.status = .succeeded
        p.amountCaptured = 500
        try await store.payments.commit(PaymentChanges(payment: p))
        try await store.payments.reserveRefund(
            Refund(
                id: "re_1", paymentId: "pay_r", tenantId: tenant, amount: 200, currency: "USD", reason: nil,
                createdAt: Date()))
        return tenant
    }

    @Test func concurrentRefundTransitionsNeverLoseAnUpdate() async throws {
        let store = try await makeStore()
        let tenant = try await reservedRefund(store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    _ = try await store.payments.transitionRefund(tenant: tenant, refundId: "re_1") {
                        $0.failureMessage = ($0.failureMessage ?? "") + "x"
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.payments.refund(id: "re_1")?.failureMessage?.count == 20)
    }

    @Test func theFirstFinalAnswerWinsAndTheRefundedTotalFollowsIt() async throws {
        let store = try await makeStore()
        let tenant = try await reservedRefund(store)
        let now = Date()
        // The notification and the provider's answer race; the machine on the locked row keeps the first.
        let answers: [RefundMachine.Event] = [
            .notified(Outcome(kind: .succeeded)), .providerAnswered(.declined(code: "NO", message: "refused")),
        ]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for event in answers {
                group.addTask {
                    _ = try await store.payments.transitionRefund(tenant: tenant, refundId: "re_1") {
                        RefundMachine.apply(event, to: &$0, at: now)
                    }
                }
            }
            try await group.waitForAll()
        }
        let record = try #require(try await store.payments.record(tenant: tenant, paymentId: "pay_r"))
        let refund = try #require(record.refunds.first)
        #expect(refund.status == .succeeded || refund.status == .failed)
        #expect(record.payment.amountRefunded == (refund.status == .succeeded ? 200 : 0))
        let late = try await store.payments.transitionRefund(tenant: tenant, refundId: "re_1") {
            RefundMachine.apply(.inquiryAnswered(.unknown("timeout")), to: &$0, at: now)
        }
        #expect(late == [])
        #expect(try await store.payments.refund(id: "re_1")?.status == refund.status)
    }

    @Test func anotherTenantsRefundIsNotFound() async throws {
        let store = try await makeStore()
        _ = try await reservedRefund(store)
        let other = try await store.tenants.createTenant(name: "O", actor: "test").id
        let result = try await store.payments.transitionRefund(tenant: other, refundId: "re_1") { _ in true }
        #expect(result == nil)
    }
}
