import Foundation
import ProviderKit

extension PaymentService {
    /// The rule for `processing` payments under the tenant's policy.
    func staleRule(tenant: UUID) async throws -> StaleProcessing {
        StaleProcessing(policy: try await effectivePolicy(tenant: tenant))
    }

    /// Settles a `processing` payment past its provider deadline: one that never reached a provider fails
    /// (`not_sent`, nothing can have been charged); one whose attempt has no outcome becomes unknown and
    /// is synced with the provider. A payment still within its deadline is returned unchanged.
    @discardableResult
    public func resolveStale(tenant: UUID, paymentId: String) async throws -> PaymentRecord {
        let record = try await get(tenant: tenant, paymentId: paymentId)
        let now = clock()
        let action = try await staleRule(tenant: tenant).action(
            for: record.payment, lastAttempt: record.lastAttempt, now: now)
        guard action != .wait else { return record }
        // Only the state that was judged is changed: an attempt committed meanwhile moves the account.
        let seenUpdate = record.payment.updatedAt
        let seenAccount = record.payment.providerAccountId
        let moved = try await payments.transition(tenant: tenant, paymentId: paymentId, with: PaymentChanges()) {
            payment -> Bool in
            guard payment.status == .processing, payment.updatedAt == seenUpdate,
                payment.providerAccountId == seenAccount
            else { return false }
            switch action {
            case .failNotSent:
                payment.status = .failed
                payment.failureCode = StaleProcessing.notSentCode
                payment.failureMessage = "the payment never reached a provider; nothing was charged"
                payment.nextAction = nil
            case .resolveWithProvider:
                payment.status = .unknown
                payment.resolution = Payment.Resolution(since: now)
            case .wait:
                return false
            }
            payment.updatedAt = now
            return true
        }
        guard moved else { return try await get(tenant: tenant, paymentId: paymentId) }
        logger.notice(
            "processing payment past its deadline",
            metadata: [
                "tenant.id": "\(tenant)", "payment.id": "\(paymentId)",
                "action": "\(action == .failNotSent ? "failed_not_sent" : "sync")",
            ])
        if action == .resolveWithProvider { try await resolveUnknown(tenant: tenant, paymentId: paymentId) }
        return try await get(tenant: tenant, paymentId: paymentId)
    }

    /// Before acting on a payment whose outcome is open (`unknown`, or `processing` past its deadline),
    /// asks the provider; a `processing` payment within its deadline is still being worked on.
    func resolvedIfOpen(_ record: PaymentRecord) async throws -> PaymentRecord {
        var record = record
        if record.payment.status == .processing {
            let p = record.payment
            guard try await staleRule(tenant: p.tenantId).isStale(p, lastAttempt: record.lastAttempt, now: clock())
            else {
                throw CoreError(
                    .paymentInProgress, "the payment is still being processed by the provider; try again later")
            }
            record = try await resolveStale(tenant: p.tenantId, paymentId: p.id)
        }
        return try await resolvedIfUnknown(record)
    }
}
