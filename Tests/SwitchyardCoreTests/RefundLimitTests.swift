import Foundation
import SwitchyardCore
import Testing

/// What remains refundable once refunds and disputes took their share.
struct RefundLimitTests {
    func code(_ limit: RefundLimit, _ amount: Int64) -> ErrorCode? {
        do {
            try limit.check(amount)
            return nil
        } catch let error as CoreError {
            return error.code
        } catch {
            return .internalError
        }
    }

    @Test func disputedFundsCannotBeRefundedAgain() {
        let limit = RefundLimit(captured: 10_000, refunded: 1_000, pending: 1_000, disputed: 5_000)
        #expect(code(limit, 3_000) == nil)
        #expect(code(limit, 3_001) == .refundExceedsUndisputed)
        #expect(code(limit, 8_000) == .refundExceedsUndisputed)
        #expect(code(limit, 8_001) == .refundExceedsCaptured)
    }

    @Test func withoutDisputesTheCapturedRemainderIsTheLimit() {
        let limit = RefundLimit(captured: 10_000, refunded: 0, pending: 0, disputed: 0)
        #expect(code(limit, 10_000) == nil)
        #expect(code(limit, 10_001) == .refundExceedsCaptured)
    }

    @Test func sumsThatOverflowRefuse() {
        let limit = RefundLimit(captured: .min, refunded: .max, pending: 0, disputed: 0)
        #expect(code(limit, 1) == .refundExceedsCaptured)
    }

    /// The default amount, or the code that refused it.
    func defaultCode(_ limit: RefundLimit) -> String {
        do {
            return "\(try limit.defaultAmount())"
        } catch let error as CoreError {
            return error.code.rawValue
        } catch {
            return "\(error)"
        }
    }

    @Test func aRefundNamingNoAmountTakesTheWholeUndisputedRemainder() {
        #expect(defaultCode(RefundLimit(captured: 10_000, refunded: 1_000, pending: 0, disputed: 4_000)) == "5000")
        // Disputes took everything refunds left: the code says so, not "invalid amount".
        #expect(
            defaultCode(RefundLimit(captured: 10_000, refunded: 0, pending: 0, disputed: 10_000))
                == "refund_exceeds_undisputed")
        #expect(
            defaultCode(RefundLimit(captured: 10_000, refunded: 10_000, pending: 0, disputed: 0))
                == "refund_exceeds_captured")
        #expect(
            defaultCode(RefundLimit(captured: .min, refunded: .max, pending: 0, disputed: 0))
                == "refund_exceeds_captured")
    }
}
