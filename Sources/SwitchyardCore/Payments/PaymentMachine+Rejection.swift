import Foundation
import ProviderKit

/// Why a provider's report about a payment is not applied: kept for a person to review instead.
public struct ReportRejection: Error, Sendable, Equatable {
    /// A stable machine-readable reason.
    public var code: String
    /// What was wrong, in words (amounts and states only, never secrets).
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// An amount outside what the payment can hold (below 0 or above its amount).
    public static let amountOutOfRange = "amount_out_of_range"
    /// A state that contradicts the payment's final state about money.
    public static let contradictsFinalState = "contradicts_final_state"
}

extension PaymentMachine {
    /// Why the provider's `reported` state cannot be applied to the payment as it stands, or nil when it
    /// can: an amount (covered, captured or refunded) outside 0 to the payment's amount, or a final state
    /// it contradicts about money (money taken on a payment that ended without any, or a succeeded payment
    /// reported declined or cancelled). A report of an earlier, moneyless step (an authorisation after a
    /// cancellation, a pending state after success) is not a contradiction: it is only out of order.
    public func rejection(of reported: Outcome) -> ReportRejection? {
        let amounts: [(String, Int64?)] = [
            ("amount", reported.amount), ("captured amount", reported.capturedAmount),
            ("refunded amount", reported.refundedAmount),
        ]
        for case (let name, let value?) in amounts where value < 0 || value > payment.amount {
            return ReportRejection(
                code: ReportRejection.amountOutOfRange,
                message: "the provider reported a \(name) of \(value) on a payment of \(payment.amount)")
        }
        let contradiction: Bool
        switch (payment.status, reported.kind) {
        case (.failed, .succeeded), (.failed, .authorized), (.canceled, .succeeded):
            contradiction = true
        case (.succeeded, .declined), (.succeeded, .canceled):
            contradiction = true
        default:
            contradiction = false
        }
        guard contradiction else { return nil }
        return ReportRejection(
            code: ReportRejection.contradictsFinalState,
            message: "the provider reported \(reported.kind.rawValue) on a \(payment.status.rawValue) payment")
    }
}
