import Foundation
import ProviderKit

/// What the provider's answers say about refunds still `pending` or `unknown`: pure functions.
public enum RefundSettlement {
    /// The status a refund inquiry's outcome gives the refund, or nil when it says nothing definite (the
    /// provider could not be asked or does not know yet). A provider that has no such refund (a decline,
    /// e.g. Antom's `ORDER_NOT_EXIST`) never refunded it: the refund failed.
    public static func status(for outcome: Outcome) -> Refund.Status? {
        switch outcome.kind {
        case .succeeded: return .succeeded
        case .declined, .canceled: return .failed
        case .pending, .authorized: return .pending
        case .unknown, .notSent, .authExpired: return nil
        }
    }

    /// The open refunds a provider's refunded total proves succeeded, for a provider that cannot be asked
    /// about one refund: all of them when the total is exactly what succeeded here plus every open
    /// refund, none otherwise (a partial match cannot say which one succeeded, and a missing amount may
    /// still be on its way).
    public static func succeededByRefundedTotal(_ total: Int64?, refunds: [Refund]) -> [String] {
        guard let total else { return [] }
        let open = refunds.filter { $0.status == .pending || $0.status == .unknown }
        guard !open.isEmpty else { return [] }
        let succeeded = refunds.filter { $0.status == .succeeded }.reduce(Int64(0)) { $0 + $1.amount }
        let pending = open.reduce(Int64(0)) { $0 + $1.amount }
        return total == succeeded + pending ? open.map(\.id) : []
    }
}
