import Foundation

/// How much of a payment may still be refunded: what was captured, less what was refunded, what refunds
/// still pending may take, and what disputes took (``Payment/amountDisputed``). One rule, checked by the
/// payment's machine before the provider is called and again by the store with the payment's row locked.
public struct RefundLimit: Sendable, Equatable {
    public var captured: Int64
    public var refunded: Int64
    public var pending: Int64
    public var disputed: Int64

    public init(captured: Int64, refunded: Int64, pending: Int64, disputed: Int64) {
        self.captured = captured
        self.refunded = refunded
        self.pending = pending
        self.disputed = disputed
    }

    /// The amount of a refund that names none: the whole remainder. A payment with nothing left refuses
    /// with the code that says why (`refund_exceeds_undisputed` when disputes took what was left).
    public func defaultAmount() throws -> Int64 {
        let (undisputed, remainder) = try parts()
        guard remainder <= 0 else { return remainder }
        if undisputed > 0 {
            throw CoreError(
                .refundExceedsUndisputed,
                "nothing is left to refund after \(disputed) taken by disputes", param: "amount")
        }
        throw CoreError(.refundExceedsCaptured, "nothing is left to refund on this payment")
    }

    /// Refuses `amount` when it exceeds what remains: `refund_exceeds_undisputed` when the disputed funds
    /// make the difference, `refund_exceeds_captured` otherwise. Sums that overflow refuse too.
    public func check(_ amount: Int64) throws {
        let (undisputedByPending, remainder) = try parts()
        guard amount > remainder else { return }
        if amount <= undisputedByPending {
            throw CoreError(
                .refundExceedsUndisputed,
                "refund amount exceeds the remainder of \(max(remainder, 0)) left after \(disputed) taken by disputes",
                param: "amount")
        }
        throw CoreError(
            .refundExceedsCaptured, "refund amount exceeds the refundable remainder of \(max(remainder, 0))")
    }

    /// What remains before disputes and after them, with overflow checked.
    private func parts() throws -> (undisputed: Int64, remainder: Int64) {
        let (afterRefunds, o1) = captured.subtractingReportingOverflow(refunded)
        let (undisputedByPending, o2) = afterRefunds.subtractingReportingOverflow(pending)
        let (remainder, o3) = undisputedByPending.subtractingReportingOverflow(max(disputed, 0))
        guard !(o1 || o2 || o3) else {
            throw CoreError(.refundExceedsCaptured, "the payment's refundable remainder cannot be computed")
        }
        return (undisputedByPending, max(remainder, 0))
    }
}
