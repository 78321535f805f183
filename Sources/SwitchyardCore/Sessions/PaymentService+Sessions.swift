import Foundation
import Logging
import ProviderKit

extension PaymentService {
    /// The live client session of a payment waiting for the customer's app: `no_session` when it has
    /// none, `session_expired` past the provider's expiry.
    public func session(tenant: UUID, paymentId: String) async throws -> ClientSession {
        let record = try await get(tenant: tenant, paymentId: paymentId)
        guard let session = record.session(at: clock()) else {
            throw CoreError(.noSession, "the payment has no client session")
        }
        return try session.requireLive()
    }

    /// Replaces a payment's client session with a new one from the same account, where the provider allows
    /// it (the session is not bound to an order there, so nothing can be charged twice). The old session
    /// is no longer handed out. Refused with `session_not_renewable` otherwise: such a payment is left to
    /// the provider's answer (the sweeper syncs it) and the merchant creates a new payment.
    public func renewSession(tenant: UUID, paymentId: String) async throws -> PaymentRecord {
        var contact = ProviderContact.none
        return try await renewSession(tenant: tenant, paymentId: paymentId, contact: &contact)
    }

    /// ``renewSession(tenant:paymentId:)``, saying in `contact` whether the provider may have acted.
    public func renewSession(tenant: UUID, paymentId: String, contact: inout ProviderContact) async throws
        -> PaymentRecord
    {
        let record = try await get(tenant: tenant, paymentId: paymentId)
        let p = record.payment
        guard let session = record.session(at: clock()) else {
            throw CoreError(
                .noSession,
                "only a payment waiting for the customer's app has a session (status \(p.status.rawValue))")
        }
        guard session.renewable else {
            throw CoreError(
                .sessionNotRenewable,
                "this provider's session is bound to an order at the provider and cannot be renewed; create a new payment"
            )
        }
        let (last, account) = try await currentAttempt(of: record)
        var attempt = Attempt(
            id: ids.make("att"), paymentId: paymentId, tenantId: tenant, accountId: account.id,
            pluginId: account.pluginId, sequence: last.sequence + 1, reason: "client session renewed",
            startedAt: clock())
        try await payments.commit(PaymentChanges(attempts: [attempt]))
        var stored: StoredPaymentMethod?
        if let id = p.paymentMethodId { stored = try await credentials.credential(tenant: tenant, id: id) }
        contact = .possible(resourceId: paymentId)
        let outcome = await gateway.authorize(
            AuthorizeRequest(
                paymentId: paymentId, attemptId: attempt.id, merchantReference: p.reference, amount: p.amount,
                currency: p.currency, country: p.country, method: p.method, captureMode: p.captureMode,
                customerId: p.customerId, returnURL: p.returnURL, paymentData: p.paymentData,
                idempotencyKey: attempt.id, storedCredential: stored.map(providerCredential), credentialSetup: nil),
            account: account)
        attempt.record(outcome, at: clock())
        guard outcome.kind == .pending, let action = outcome.nextAction else {
            try await payments.commit(PaymentChanges(attempts: [attempt]))
            throw CoreError(
                .sessionNotRenewed, "the provider did not issue a new session (\(outcome.kind.rawValue)); try again")
        }
        let time = clock()
        try await payments.transition(tenant: tenant, paymentId: paymentId, with: PaymentChanges(attempts: [attempt])) {
            guard var machine = ClientSessionMachine(payment: $0),
                machine.handle(.renewed(action), at: time) == [.handOut(action)]
            else {
                throw CoreError(.invalidState, "the payment moved on while its session was renewed")
            }
            $0.nextAction = machine.action
            $0.updatedAt = time
        }
        logger.info(
            "client session renewed",
            metadata: ["tenant.id": "\(tenant)", "payment.id": "\(paymentId)", "provider.account": "\(account.id)"])
        return try await get(tenant: tenant, paymentId: paymentId)
    }

    /// One sweep: payments whose client session expired, or is past half its life (see ``SessionHalfLife``),
    /// are synced (the provider may have finished them meanwhile, its notification lost); pending
    /// credentials whose vaulting session expired, or that a failover left behind, are synced and then
    /// marked `expired`. A payment the last sweep past the janitor's horizon leaves still waiting is
    /// flagged for manual review. Returns how many were looked at.
    @discardableResult
    public func sweepSessions(limit: Int) async -> Int {
        let now = clock()
        var seen = 0
        do {
            // A session the provider still calls open after our expiry (clocks and roundings differ)
            // is asked about again at the janitor's first delay, until the janitor's horizon; past it, once
            // more, and one still waiting then is flagged for manual review.
            let janitor = policy.platform.janitor
            let retryAfter = TimeInterval(janitor.scheduleMs.first ?? 5_000) / 1000
            let horizon = TimeInterval(janitor.horizonMs) / 1000
            let expired = try await payments.claimExpiredSessions(
                now: now, retryAfter: retryAfter, horizon: horizon, limit: limit)
            seen += await syncClaimed(expired, failure: "sync after session expiry failed")
            for item in expired {
                await flagAtHorizon(
                    tenant: item.tenant, paymentId: item.paymentId, retryAfter: retryAfter, horizon: horizon, now: now)
            }
            seen += await syncClaimed(
                try await payments.claimHalfLifeSessions(now: now, limit: limit),
                failure: "sync at session half-life failed")
            for item in try await credentials.stalePendingCredentials(now: now, limit: limit) {
                seen += 1
                await expireStale(tenant: item.tenant, id: item.id, now: now)
            }
        } catch {
            if !Task.isCancelled { logger.error("session sweep failed", metadata: ["error": "\(error)"]) }
        }
        return seen
    }

    /// Syncs claimed payments one by one, logging the ones that fail; returns how many were claimed.
    private func syncClaimed(_ items: [(tenant: UUID, paymentId: String)], failure: Logger.Message) async -> Int {
        for item in items {
            do {
                _ = try await sync(tenant: item.tenant, paymentId: item.paymentId)
            } catch {
                logger.warning(
                    failure,
                    metadata: ["tenant.id": "\(item.tenant)", "payment.id": "\(item.paymentId)", "error": "\(error)"])
            }
        }
        return items.count
    }

    /// The sweep's last look at a session past the horizon: a payment still waiting for the customer's
    /// action (the sync, even a failed one, left it `requires_action`) is flagged for manual review, once;
    /// its status stays, so a later answer from the provider still settles it.
    private func flagAtHorizon(
        tenant: UUID, paymentId: String, retryAfter: TimeInterval, horizon: TimeInterval, now: Date
    ) async {
        let due: @Sendable (Payment) -> Bool = { payment in
            guard payment.resolution?.reviewRequired != true,
                var machine = ClientSessionMachine(payment: payment, retryAfter: retryAfter, horizon: horizon)
            else { return false }
            return machine.handle(.swept, at: now).contains(.flagForReview)
        }
        do {
            // Read first so a sweep within the horizon writes nothing; decided again under the row's lock.
            guard due(try await get(tenant: tenant, paymentId: paymentId).payment) else { return }
            let flagged = try await payments.transition(tenant: tenant, paymentId: paymentId, with: PaymentChanges()) {
                payment -> Bool in
                guard due(payment) else { return false }
                payment.resolution = Payment.Resolution(since: now, reviewRequired: true)
                return true
            }
            guard flagged else { return }
            logger.warning(
                "payment needs manual review: customer action still pending at the horizon",
                metadata: ["tenant.id": "\(tenant)", "payment.id": "\(paymentId)"])
        } catch {
            logger.warning(
                "payment not flagged at the session horizon",
                metadata: ["tenant.id": "\(tenant)", "payment.id": "\(paymentId)", "error": "\(error)"])
        }
    }

    private func expireStale(tenant: UUID, id: String, now: Date) async {
        do {
            guard let found = try await credentials.credential(tenant: tenant, id: id), found.status == .pending
            else { return }
            // The provider may have issued the token just before the session ended.
            if found.session != nil {
                let synced = try await syncPaymentMethod(tenant: tenant, customerId: found.customerId, id: id)
                guard synced.status == .pending else { return }
            }
            let time = clock()
            // Expired only if still pending now: a notification may have settled it meanwhile.
            let expired = try await credentials.updateCredential(tenant: tenant, id: id) { credential in
                let sessionEnded = credential.session.map { ClientSession.status(of: $0, at: now) == .expired } ?? false
                return !StoredCredentialMachine.apply(.abandoned(sessionEnded: sessionEnded), to: &credential, at: time)
                    .isEmpty
            }
            guard let expired, expired.status == .expired, expired.updatedAt == time else { return }
            logger.info(
                "pending payment method expired",
                metadata: [
                    "tenant.id": "\(tenant)", "payment_method.id": "\(id)",
                    "payment_method.reason": "\(expired.failureCode ?? "")",
                ])
        } catch {
            logger.warning(
                "pending payment method not swept",
                metadata: ["tenant.id": "\(tenant)", "payment_method.id": "\(id)", "error": "\(error)"])
        }
    }
}
