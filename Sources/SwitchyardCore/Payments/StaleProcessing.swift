import Foundation
import ProviderKit

/// Decides what becomes of a payment left in `processing`: a pure function of the payment, its last
/// attempt and the time. A payment is only touched once its provider deadline has passed since its last
/// update or the start of its last attempt, so a request still working on it is never disturbed.
public struct StaleProcessing: Sendable, Equatable {
    /// What to do with the payment.
    public enum Action: Sendable, Equatable {
        /// Not `processing`, or still within its deadline: leave it alone.
        case wait
        /// No provider was ever called, or every call provably was not sent: fail it, nothing was charged.
        case failNotSent
        /// An attempt's outcome is not known: treat the payment as unknown and ask the provider.
        case resolveWithProvider
    }

    /// How long after its last update (or its last attempt's start) a `processing` payment is stale.
    public var deadline: TimeInterval

    public init(deadline: TimeInterval) {
        self.deadline = deadline
    }

    /// The deadline of a policy: twice the provider timeout, so a live call always finishes first.
    public init(policy: PlatformPolicy) {
        self.deadline = 2 * Double(policy.limits.providerTimeoutMs) / 1000
    }

    /// When the payment's deadline passes (its last update or attempt start plus ``deadline``).
    public func expiry(of payment: Payment, lastAttempt: Attempt?) -> Date {
        let start = max(payment.updatedAt, lastAttempt?.startedAt ?? payment.updatedAt)
        return start.addingTimeInterval(deadline)
    }

    /// Whether a `processing` payment is past its deadline at `now`.
    public func isStale(_ payment: Payment, lastAttempt: Attempt?, now: Date) -> Bool {
        payment.status == .processing && now >= expiry(of: payment, lastAttempt: lastAttempt)
    }

    /// The action for `payment` (with its last attempt, if any) at `now`.
    public func action(for payment: Payment, lastAttempt: Attempt?, now: Date) -> Action {
        guard isStale(payment, lastAttempt: lastAttempt, now: now) else { return .wait }
        guard let attempt = lastAttempt else { return .failNotSent }
        switch attempt.outcome {
        case .notSent?, .authExpired?, .declined?:
            // A failover step that never started its next attempt: nothing is open at any provider.
            return .failNotSent
        default:
            return .resolveWithProvider
        }
    }

    /// The failure recorded on a payment that no provider ever received.
    public static let notSentCode = "not_sent"
}
