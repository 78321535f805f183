import Foundation
import ProviderKit

/// The janitor's steps that move a payment's non-final states forward: a `processing` payment past its
/// deadline, an `unknown` payment, an authorisation held for its capture, an open refund or capture.
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

    /// One janitor step for an unknown payment: sync it; if still unknown, schedule the next sync by the
    /// policy, or flag it for manual review once the horizon has passed.
    public func resolveUnknown(tenant: UUID, paymentId: String) async throws {
        let before = try await get(tenant: tenant, paymentId: paymentId)
        guard before.payment.status == .unknown else { return }
        var synced: PaymentRecord?
        do {
            synced = try await sync(tenant: tenant, paymentId: paymentId)
        } catch {
            logger.warning(
                "sync of an unknown payment failed",
                metadata: ["tenant.id": "\(tenant)", "payment.id": "\(paymentId)", "error": "\(error)"])
        }
        if let synced, synced.payment.status != .unknown {
            logger.info(
                "unknown payment resolved",
                metadata: [
                    "tenant.id": "\(tenant)", "payment.id": "\(paymentId)",
                    "payment.status": "\(synced.payment.status.rawValue)",
                ])
            return
        }
        let janitor = try await effectivePolicy(tenant: tenant).janitor
        let now = clock()
        let flagged = try await payments.transition(tenant: tenant, paymentId: paymentId, with: PaymentChanges()) {
            payment -> Bool in
            guard payment.status == .unknown else { return false }
            var resolution = payment.resolution ?? Payment.Resolution(since: now)
            resolution.syncs += 1
            if let next = janitor.nextSync(after: resolution.syncs, unknownSince: resolution.since, now: now) {
                resolution.nextSyncAt = next
            } else {
                resolution.reviewRequired = true
                resolution.nextSyncAt = nil
            }
            payment.resolution = resolution
            return resolution.reviewRequired
        }
        if flagged {
            logger.warning(
                "payment needs manual review: outcome still unknown at the horizon",
                metadata: ["tenant.id": "\(tenant)", "payment.id": "\(paymentId)"])
        }
    }

    /// One janitor step for a payment waiting for its capture at a sync point of its authorisation hold:
    /// asks the provider, so a capture, cancellation or expiry that happened there without a notification
    /// is applied. Returns the payment as it now stands.
    @discardableResult
    public func syncHeldAuthorization(tenant: UUID, paymentId: String) async throws -> PaymentRecord {
        let record = try await get(tenant: tenant, paymentId: paymentId)
        guard record.payment.status == .authorized else { return record }
        let synced = try await sync(tenant: tenant, paymentId: paymentId)
        if synced.payment.status != .authorized {
            logger.notice(
                "authorised payment changed at the provider",
                metadata: [
                    "tenant.id": "\(tenant)", "payment.id": "\(paymentId)",
                    "payment.status": "\(synced.payment.status.rawValue)",
                ])
        }
        return synced
    }

    /// One janitor look at a refund still `pending` or `unknown`. The refund is asked about with the
    /// plugin's refund inquiry; a plugin without one is answered by the payment's refunded total where
    /// that total settles every open refund of the payment (see ``RefundSettlement``), otherwise the
    /// refund stays as it is and is listed for review. A final refund is never changed (the store keeps it).
    public func resolveOpenRefund(tenant: UUID, paymentId: String, refundId: String) async throws
        -> OpenOperationLook
    {
        let record = try await get(tenant: tenant, paymentId: paymentId)
        guard let refund = record.refunds.first(where: { $0.id == refundId }),
            refund.status == .pending || refund.status == .unknown
        else { return .settled }
        let (attempt, account) = try await currentAttempt(of: record)
        if await gateway.manifest(pluginId: account.pluginId)?.flows.contains(.syncRefund) == true {
            let outcome = await gateway.syncRefund(
                SyncRefundRequest(
                    payment: locator(attempt), refundId: refund.id, providerRefundId: refund.providerRefundId),
                account: account)
            let time = clock()
            let result = try await payments.transitionRefund(tenant: tenant, refundId: refund.id) { stored in
                (RefundMachine.apply(.inquiryAnswered(outcome), to: &stored, at: time), stored)
            }
            guard let (actions, settled) = result else { return .settled }
            if actions.contains(.announce(settled.status)) { logRefund(settled, how: "inquiry") }
            return actions.contains(.syncLater) ? .open : .settled
        }
        let outcome = await gateway.sync(SyncRequest(payment: locator(attempt)), account: account)
        let proven = Set(RefundSettlement.succeededByRefundedTotal(outcome.refundedAmount, refunds: record.refunds))
        guard proven.contains(refund.id) else {
            logger.warning(
                "refund outcome still open: the provider has no refund inquiry",
                metadata: [
                    "tenant.id": "\(tenant)", "payment.id": "\(paymentId)", "refund.id": "\(refund.id)",
                    "provider.account": "\(account.id)",
                ])
            return .unanswerable("refund_inquiry_unsupported")
        }
        for id in proven.sorted() {
            let time = clock()
            let result = try await payments.transitionRefund(tenant: tenant, refundId: id) { stored in
                (RefundMachine.apply(.provenByRefundedTotal, to: &stored, at: time), stored)
            }
            if let (actions, settled) = result, actions.contains(.announce(.succeeded)) {
                logRefund(settled, how: "refunded_total")
            }
        }
        return .settled
    }

    /// One janitor look at a capture still `pending` or `unknown`: the payment is synced (when it is not
    /// final yet), and the capture takes the outcome the payment's state proves: succeeded when the payment
    /// did, declined when it ended without money.
    public func resolveOpenCapture(tenant: UUID, paymentId: String, operationId: String) async throws
        -> OpenOperationLook
    {
        var record = try await get(tenant: tenant, paymentId: paymentId)
        guard var operation = record.operations.first(where: { $0.id == operationId }),
            operation.kind == .capture, operation.outcome == .pending || operation.outcome == .unknown
        else { return .settled }
        if !record.payment.status.isFinal {
            record = try await sync(tenant: tenant, paymentId: paymentId)
        }
        switch record.payment.status {
        case .succeeded:
            operation.outcome = .succeeded
            operation.code = nil
            operation.message = nil
        case .failed, .canceled:
            operation.outcome = .declined
            operation.code = "payment_\(record.payment.status.rawValue)"
            operation.message = "the payment ended without this capture"
        default:
            return .open
        }
        try await payments.commit(PaymentChanges(operations: [operation]))
        logger.info(
            "open capture settled",
            metadata: [
                "tenant.id": "\(tenant)", "payment.id": "\(paymentId)", "operation.id": "\(operationId)",
                "outcome": "\(operation.outcome?.rawValue ?? "-")",
            ])
        return .settled
    }

    private func logRefund(_ refund: Refund, how: String) {
        logger.info(
            "open refund resolved",
            metadata: [
                "tenant.id": "\(refund.tenantId)", "payment.id": "\(refund.paymentId)", "refund.id": "\(refund.id)",
                "refund.status": "\(refund.status.rawValue)", "resolved.by": "\(how)",
            ])
    }
}
