import Foundation
import ProviderKit

extension PaymentService {
    /// Handles a provider notification for an account: the plugin verifies it first.
    ///
    /// A verified notification is recorded (its secret fields removed) unless its signed content was seen
    /// before, applied, then marked applied; a replay of an applied one is only acknowledged, one whose
    /// application failed is applied again, and a failure to apply is answered ``NotificationAnswer/retryLater``
    /// so the provider sends it again. A report the payment's state rejects (see ``PaymentMachine/rejection(of:)``)
    /// is not applied: the notification is marked handled with the reason, listed for review, and
    /// acknowledged like an applied one, so the provider's retries never re-apply it. An unverifiable notification is answered at once (``NotificationAnswer/unverified(reply:)``) without any provider
    /// call: it is stored within the policy's hourly cap and causes at most one background sync of the
    /// account's open payments per interval, across replicas. Its body is never trusted.
    public func handleNotification(accountId: UUID, request: NotificationRequest, log: any NotificationLog)
        async throws -> NotificationAnswer
    {
        guard let account = try await configuration.account(id: accountId) else {
            throw CoreError.notFound("notification endpoint")
        }
        let result = try await gateway.notification(request, account: account)
        let body = NotificationRedaction.redact(request.body, extraFields: result.secretFields)
        guard result.verified else {
            return try await refuseUnverified(result, body: body, request: request, account: account, log: log)
        }
        let signedContent = result.dedupKey.map { Data($0.utf8) } ?? request.body
        let record = try await log.recordVerified(
            accountId: account.id, tenantId: account.tenantId, headers: request.headers, body: body,
            signedContent: signedContent, at: clock())
        guard case .toApply(let id) = record else {
            logger.info("notification replay acknowledged", metadata: ["provider.account": "\(account.id)"])
            return .acknowledged(result.reply)
        }
        var rejected: (paymentId: String, rejection: ReportRejection)?
        do {
            try await apply(result.credentials, account: account)
            for event in result.events {
                if let rejection = try await apply(event, account: account) { rejected = rejected ?? rejection }
            }
            for event in result.disputes {
                try await disputes.receive(event, account: account)
            }
        } catch {
            logger.error(
                "notification not applied; the provider will send it again",
                metadata: ["provider.account": "\(account.id)", "error": "\(error)"])
            return .retryLater
        }
        if let rejected {
            try await log.markRejected(
                id: id, tenantId: account.tenantId, paymentId: rejected.paymentId, rejection: rejected.rejection,
                at: clock())
        } else {
            try await log.markApplied(id: id, tenantId: account.tenantId, at: clock())
        }
        return .acknowledged(result.reply)
    }

    /// Stores an unverifiable notification within the cap, schedules the account's background sync if none
    /// ran within the interval, and answers with the plugin's refusal when it chose a client error.
    private func refuseUnverified(
        _ result: NotificationResult, body: Data, request: NotificationRequest, account: ProviderAccount,
        log: any NotificationLog
    ) async throws -> NotificationAnswer {
        let settings = policy.platform.notifications
        let now = clock()
        let stored = try await log.recordUnverified(
            accountId: account.id, tenantId: account.tenantId, headers: request.headers, body: body,
            failureReason: result.failureReason, at: now, cap: settings.storedPerHour,
            since: now.addingTimeInterval(-3600))
        logger.warning(
            "notification rejected",
            metadata: [
                "provider.account": "\(account.id)", "reason": "\(result.failureReason ?? "unverified")",
                "notification.stored": "\(stored)",
            ])
        let claimed = try await log.claimUnverifiedSync(
            accountId: account.id, tenantId: account.tenantId, at: now,
            notAfter: now.addingTimeInterval(-settings.syncInterval))
        if claimed {
            let service = self
            let limit = settings.syncPayments
            let queued = background.submit { await service.syncOpenPayments(account: account, limit: limit) }
            if !queued {
                logger.warning(
                    "background work full; the account's open payments are left to the janitor's scheduled syncs",
                    metadata: ["provider.account": "\(account.id)"])
            }
        }
        return .unverified(reply: (400..<500).contains(result.reply.status) ? result.reply : nil)
    }

    /// Syncs an account's open payments with the provider, so an outcome whose notification was lost (or
    /// forged) is learnt from the provider itself.
    func syncOpenPayments(account: ProviderAccount, limit: Int) async {
        do {
            let open = try await payments.openPayments(accountId: account.id, limit: limit)
            logger.info(
                "syncing open payments after an unverifiable notification",
                metadata: ["provider.account": "\(account.id)", "payments": "\(open.count)"])
            for payment in open {
                _ = try? await sync(tenant: payment.tenant, paymentId: payment.paymentId)
            }
        } catch {
            logger.warning(
                "open payments could not be listed for a sync",
                metadata: ["provider.account": "\(account.id)", "error": "\(error)"])
        }
    }

    /// Applies one event; returns the payment and the reason when its state rejected the report (nothing
    /// of the event is stored then).
    private func apply(_ event: NotificationEvent, account: ProviderAccount) async throws -> (
        paymentId: String, rejection: ReportRejection
    )? {
        switch event.subject {
        case .payment:
            var attempt: Attempt?
            if let reference = event.reference {
                attempt = try await payments.attempt(accountId: account.id, attemptId: reference)
            }
            if attempt == nil, let providerId = event.providerPaymentId {
                attempt = try await payments.attempt(accountId: account.id, providerPaymentId: providerId)
            }
            guard var attempt else { return unknownPayment(account) }
            if attempt.providerPaymentId == nil { attempt.providerPaymentId = event.providerPaymentId }
            attempt.providerStatus = event.outcome.providerStatus ?? attempt.providerStatus
            attempt.learn(event.outcome)
            let time = clock()
            let outcome = event.outcome
            let paymentId = attempt.paymentId
            let settled: (before: PaymentStatus, after: PaymentStatus, createdAt: Date)
            do {
                settled = try await payments.transition(
                    tenant: account.tenantId, paymentId: paymentId, with: PaymentChanges(attempts: [attempt])
                ) { payment in
                    // Judged on the locked row; throwing rolls the whole change back.
                    if let rejection = PaymentMachine(payment: payment).rejection(of: outcome) { throw rejection }
                    let before = payment.status
                    _ = PaymentMachine.apply(.providerReported(outcome), to: &payment, at: time)
                    return (before, payment.status, payment.createdAt)
                }
            } catch let rejection as ReportRejection {
                logger.warning(
                    "notification rejected by the payment's state; kept for review",
                    metadata: [
                        "tenant.id": "\(account.tenantId)", "payment.id": "\(paymentId)", "reason": "\(rejection.code)",
                    ])
                return (paymentId, rejection)
            } catch let error as CoreError where error.code == .notFound {
                return unknownPayment(account)
            }
            if settled.before == .requiresAction && settled.after != .requiresAction {
                await learnDelay(of: paymentId, createdAt: settled.createdAt, account: account, at: time)
            }
            logger.info(
                "notification applied",
                metadata: [
                    "tenant.id": "\(account.tenantId)", "payment.id": "\(paymentId)",
                    "payment.status": "\(settled.after.rawValue)",
                ])
            return nil
        case .refund:
            guard let reference = event.reference else { return nil }
            let time = clock()
            let outcome = event.outcome
            _ = try await payments.transitionRefund(tenant: account.tenantId, refundId: reference) {
                RefundMachine.apply(.notified(outcome), to: &$0, at: time)
            }
            return nil
        case .other:
            return nil
        }
    }

    /// A notification about a payment this account does not have: kept (it was recorded), nothing applied.
    private func unknownPayment(_ account: ProviderAccount) -> (paymentId: String, rejection: ReportRejection)? {
        logger.notice("notification for an unknown payment kept", metadata: ["provider.account": "\(account.id)"])
        return nil
    }

    /// Records how long after its creation a payment that waited for the customer's app was settled by
    /// its notification, for the account's overdue threshold. A failure to record loses one sample only.
    private func learnDelay(of paymentId: String, createdAt: Date, account: ProviderAccount, at time: Date) async {
        do {
            try await payments.recordNotificationDelay(
                tenant: account.tenantId, accountId: account.id, seconds: time.timeIntervalSince(createdAt), at: time)
        } catch {
            logger.warning(
                "notification delay not recorded",
                metadata: ["provider.account": "\(account.id)", "payment.id": "\(paymentId)", "error": "\(error)"])
        }
    }
}
