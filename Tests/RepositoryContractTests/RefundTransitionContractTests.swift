import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// What both payment repositories promise of a refund's transition: applied one at a time, stored with the
/// payment's refunded amount, and hidden from other tenants.
struct RefundTransitionContractTests {
    @Test(arguments: Backend.allCases)
    func concurrentRefundTransitionsAreAppliedOneAtATime(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", status: .succeeded)))
        try await s.payments.reserveRefund(s.refund("re_1", of: "pay_1", amount: 400))
        let (tenant, payments) = (s.tenant, s.payments)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    _ = try await payments.transitionRefund(tenant: tenant, refundId: "re_1") { refund in
                        let seen = Int(refund.providerRefundId ?? "0") ?? 0
                        refund.providerRefundId = String(seen + 1)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await s.payments.refund(id: "re_1")?.providerRefundId == "20")
    }

    @Test(arguments: Backend.allCases)
    func aSucceededRefundCountsInTheRefundedAmount(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", status: .succeeded)))
        try await s.payments.reserveRefund(s.refund("re_1", of: "pay_1", amount: 400))
        let changed = try await s.payments.transitionRefund(tenant: s.tenant, refundId: "re_1") { refund -> Bool in
            refund.status = .succeeded
            return true
        }
        #expect(changed == true)
        #expect(try await s.payments.record(tenant: s.tenant, paymentId: "pay_1")?.payment.amountRefunded == 400)
        #expect(try await s.payments.transitionRefund(tenant: UUID(), refundId: "re_1") { _ in true } == nil)
        #expect(try await s.payments.transitionRefund(tenant: s.tenant, refundId: "re_none") { _ in true } == nil)
    }
}
