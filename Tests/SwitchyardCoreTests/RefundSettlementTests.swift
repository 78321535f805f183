import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

struct RefundSettlementTests {
    func refund(_ id: String, _ amount: Int64, _ status: Refund.Status) -> Refund {
        var r = Refund(
            id: id, paymentId: "pay_1", tenantId: UUID(), amount: amount, currency: "USD", reason: nil,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        r.status = status
        return r
    }

    @Test func anInquirySettlesOnlyDefiniteAnswers() {
        #expect(RefundSettlement.status(for: Outcome(kind: .succeeded)) == .succeeded)
        #expect(RefundSettlement.status(for: .declined(code: "ORDER_NOT_EXIST", message: "none")) == .failed)
        #expect(RefundSettlement.status(for: Outcome(kind: .canceled)) == .failed)
        #expect(RefundSettlement.status(for: Outcome(kind: .pending)) == .pending)
        #expect(RefundSettlement.status(for: .unknown("timeout")) == nil)
        #expect(RefundSettlement.status(for: .notSent("down")) == nil)
        #expect(RefundSettlement.status(for: .authExpired) == nil)
    }

    @Test func theRefundedTotalSettlesOpenRefundsOnlyWhenItAccountsForAllOfThem() {
        let refunds = [refund("re_1", 300, .succeeded), refund("re_2", 200, .unknown), refund("re_3", 100, .pending)]
        #expect(RefundSettlement.succeededByRefundedTotal(600, refunds: refunds) == ["re_2", "re_3"])
        // 500 could be either open refund plus… nothing definite: neither is settled.
        #expect(RefundSettlement.succeededByRefundedTotal(500, refunds: refunds).isEmpty)
        #expect(RefundSettlement.succeededByRefundedTotal(300, refunds: refunds).isEmpty, "may still be on its way")
        #expect(RefundSettlement.succeededByRefundedTotal(nil, refunds: refunds).isEmpty)
        #expect(RefundSettlement.succeededByRefundedTotal(900, refunds: refunds).isEmpty)
        let single = [refund("re_9", 400, .unknown), refund("re_8", 50, .failed)]
        #expect(RefundSettlement.succeededByRefundedTotal(400, refunds: single) == ["re_9"])
        #expect(RefundSettlement.succeededByRefundedTotal(0, refunds: [refund("re_7", 1, .succeeded)]).isEmpty)
    }
}
