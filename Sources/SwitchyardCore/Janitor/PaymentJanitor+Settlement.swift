import Foundation
import Logging

extension PaymentJanitor {
    /// Syncs the `authorized` payments at a sync point of their authorisation hold (see
    /// ``AuthorizationHold``); returns how many were claimed.
    func syncHeldAuthorizations(now: Date) async -> Int {
        guard let settlement else { return 0 }
        let hold = AuthorizationHold(policy: service.policy.platform.settlement)
        return await claimAndRun(
            "authorised payments",
            claim: {
                try await settlement.claimHeldAuthorizations(
                    now: now, hold: hold, limit: service.policy.platform.janitor.batchSize)
            },
            step: { try await service.syncHeldAuthorization(tenant: $0, paymentId: $1) })
    }

    /// Looks at the refunds and captures left `pending` or `unknown`: each is first looked at once its
    /// provider deadline has passed (so a call still in flight is never judged), then on the janitor's
    /// schedule until the horizon, when it is listed for review. Returns how many were claimed.
    func settleOpenOperations(now: Date, leaseUntil: Date) async -> Int {
        guard let settlement else { return 0 }
        let platform = service.policy.platform
        let firstDelay = max(
            Double(platform.janitor.scheduleMs.first ?? platform.janitor.thenEveryMs) / 1000,
            StaleProcessing(policy: platform).deadline)
        let claimed: [OpenOperation]
        do {
            claimed = try await settlement.claimOpenOperations(
                now: now, firstDelay: firstDelay, leaseUntil: leaseUntil, limit: platform.janitor.batchSize)
        } catch {
            if !Task.isCancelled {
                logger.error("janitor could not claim open refunds and captures", metadata: ["error": "\(error)"])
            }
            return 0
        }
        for operation in claimed {
            await settle(operation, settlement: settlement)
        }
        return claimed.count
    }

    private func settle(_ operation: OpenOperation, settlement: any SettlementRepository) async {
        let metadata: Logger.Metadata = [
            "tenant.id": "\(operation.tenant)", "payment.id": "\(operation.paymentId)",
            "\(operation.kind.rawValue).id": "\(operation.id)",
        ]
        var look = OpenOperationLook.open
        do {
            switch operation.kind {
            case .refund:
                look = try await service.resolveOpenRefund(
                    tenant: operation.tenant, paymentId: operation.paymentId, refundId: operation.id)
            case .capture:
                look = try await service.resolveOpenCapture(
                    tenant: operation.tenant, paymentId: operation.paymentId, operationId: operation.id)
            }
        } catch {
            logger.warning(
                "janitor could not resolve an open \(operation.kind.rawValue)",
                metadata: metadata.merging(["error": "\(error)"]) { $1 })
        }
        if look == .settled { return }
        do {
            let janitor = try await service.effectivePolicy(tenant: operation.tenant).janitor
            let now = clock()
            let syncs = operation.syncs + 1
            let next = janitor.nextSync(after: syncs, unknownSince: operation.since, now: now)
            var reason: String?
            if case .unanswerable(let why) = look { reason = why }
            if next == nil { reason = reason ?? "unresolved_at_horizon" }
            if operation.kind == .refund, let given = reason {
                reason = try await giveUpRefund(operation, reason: given)
            }
            if next == nil, reason != nil {
                logger.warning("open \(operation.kind.rawValue) needs manual review", metadata: metadata)
            }
            try await settlement.scheduleOpenOperation(operation, syncs: syncs, nextSyncAt: next, reviewReason: reason)
        } catch {
            if !Task.isCancelled {
                logger.warning(
                    "janitor could not schedule an open \(operation.kind.rawValue)",
                    metadata: metadata.merging(["error": "\(error)"]) { $1 })
            }
        }
    }
}
