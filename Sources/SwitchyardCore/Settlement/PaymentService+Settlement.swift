import Foundation
import ProviderKit

/// What one janitor look at an open refund or capture found.
public enum OpenOperationLook: Sendable, Equatable {
    /// The operation reached a final outcome (or was final already).
    case settled
    /// Still open; look again on the schedule.
    case open
    /// Still open and the provider cannot tell: look again on the schedule, and list it for review now
    /// with this reason.
    case unanswerable(String)
}

extension PaymentService {
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
