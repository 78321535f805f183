import Foundation
import ProviderKit

extension PaymentService {
    /// Handles a provider notification for an account: verify (by the plugin), record raw, apply events.
    /// An unverifiable notification is refused and triggers a sync of the account's open payments
    /// instead; its body is never trusted.
    public func handleNotification(accountId: UUID, request: NotificationRequest, log: any NotificationLog)
        async throws -> NotificationReply
    {
        guard let account = try await configuration.account(id: accountId) else {
            throw CoreError.notFound("notification endpoint")
        }
        let result = try await gateway.notification(request, account: account)
        let isNew = try await log.recordNotification(
            accountId: account.id, tenantId: account.tenantId, headers: request.headers, body: request.body,
            verified: result.verified, failureReason: result.failureReason)
        guard result.verified else {
            logger.warning(
                "notification rejected",
                metadata: ["provider.account": "\(account.id)", "reason": "\(result.failureReason ?? "unverified")"])
            for open in try await payments.openPayments(accountId: account.id, limit: 20) {
                _ = try? await sync(tenant: open.tenant, paymentId: open.paymentId)
            }
            return result.reply
        }
        if isNew {
            try await apply(result.credentials, account: account)
            for event in result.events {
                try await apply(event, account: account)
            }
        }
        return result.reply
    }

    private func apply(_ event: NotificationEvent, account: ProviderAccount) async throws {
        switch event.subject {
        case .payment:
            var attempt: Attempt?
            if let reference = event.reference {
                attempt = try await payments.attempt(accountId: account.id, attemptId: reference)
            }
            if attempt == nil, let providerId = event.providerPaymentId {
                attempt = try await payments.attempt(accountId: account.id, providerPaymentId: providerId)
            }
            guard var attempt,
                let record = try await payments.record(tenant: account.tenantId, paymentId: attempt.paymentId)
            else {
                logger.notice(
                    "notification for an unknown payment kept", metadata: ["provider.account": "\(account.id)"])
                return
            }
            if attempt.providerPaymentId == nil { attempt.providerPaymentId = event.providerPaymentId }
            attempt.providerStatus = event.outcome.providerStatus ?? attempt.providerStatus
            let time = clock()
            let outcome = event.outcome
            let status = try await payments.transition(
                tenant: account.tenantId, paymentId: record.payment.id, with: PaymentChanges(attempts: [attempt])
            ) { payment -> PaymentStatus in
                _ = PaymentMachine.apply(.providerReported(outcome), to: &payment, at: time)
                return payment.status
            }
            logger.info(
                "notification applied",
                metadata: [
                    "tenant.id": "\(account.tenantId)", "payment.id": "\(record.payment.id)",
                    "payment.status": "\(status.rawValue)",
                ])
        case .refund:
            guard let reference = event.reference, var refund = try await payments.refund(id: reference),
                refund.tenantId == account.tenantId
            else { return }
            switch event.outcome.kind {
            case .succeeded: refund.status = .succeeded
            case .declined, .canceled: refund.status = .failed
            default: return
            }
            refund.updatedAt = clock()
            try await payments.commit(PaymentChanges(refunds: [refund]))
        case .other:
            return
        }
    }
}
