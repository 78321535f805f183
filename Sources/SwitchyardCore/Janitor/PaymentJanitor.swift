import Foundation
import Logging
import Metrics
import SwitchyardObservability

/// Resolves payments whose outcome is unknown: syncs each with the provider on the policy's backoff
/// schedule, and flags for manual review the ones still unknown at the horizon. Payments left `processing`
/// past the provider deadline are settled too: failed when no provider was called, else synced. Never charges again and
/// never marks a payment failed without the provider saying so. Safe with several replicas: due
/// payments are claimed with `FOR UPDATE SKIP LOCKED` and leased while they are synced. With a
/// settlement store it also syncs `authorized` payments before their authorisation lapses and resolves
/// refunds and captures left `pending` or `unknown` (see `PaymentJanitor+Settlement.swift`).
public struct PaymentJanitor: Sendable {
    let service: PaymentService
    let payments: any PaymentRepository
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Where expired unverifiable notifications are deleted from; nil: nothing to sweep.
    let notifications: (any NotificationLog)?
    /// Where authorised payments and open refunds and captures are claimed from; nil: not watched.
    let settlement: (any SettlementRepository)?
    /// Where finished data is deleted once its retention has passed; nil: kept.
    let retention: (any RetentionRepository)?
    /// Where `Idempotency-Key`s left in progress past their lease are settled; nil: left to their retries.
    let keys: (any IdempotencyKeyMaintenance)?
    /// Where the keys of server incarnations that stopped heart-beating are released (never those of `own`,
    /// the incarnation running this janitor); nil: left to their lease.
    let instances: (registry: any InstanceRegistry, own: ServerInstance)?
    /// Where recorded routing answers are pruned once no statistics window counts them; nil: kept.
    let outcomes: (any RoutingOutcomeRetention)?
    /// Where running guarded rollouts are decided; nil: none are.
    let rollouts: (any RolloutRepository)?
    /// A database outage under way: logged once, and the pause between looks grows while it lasts.
    public let outage: DatabaseOutage
    /// When each kind of expired data is next deleted (shared by the copies of this janitor).
    let retentionPacer = RetentionPacer()
    /// The accounts' overdue-notification thresholds, read at most every 30 seconds.
    let overdueThresholds = OverdueThresholds()

    public init(
        service: PaymentService, payments: any PaymentRepository, clock: @escaping @Sendable () -> Date,
        logger: Logger, notifications: (any NotificationLog)? = nil, settlement: (any SettlementRepository)? = nil,
        retention: (any RetentionRepository)? = nil, keys: (any IdempotencyKeyMaintenance)? = nil,
        instances: (registry: any InstanceRegistry, own: ServerInstance)? = nil,
        outcomes: (any RoutingOutcomeRetention)? = nil, rollouts: (any RolloutRepository)? = nil
    ) {
        self.outcomes = outcomes
        self.rollouts = rollouts
        self.keys = keys
        self.instances = instances
        self.settlement = settlement
        self.retention = retention
        self.service = service
        self.payments = payments
        self.clock = clock
        self.logger = logger
        self.notifications = notifications
        self.outage = DatabaseOutage(worker: "janitor", logger: logger)
    }

    /// Syncs the payments that are due now; returns how many were looked at.
    @discardableResult
    public func runOnce() async -> Int {
        let janitor = service.policy.platform.janitor
        let now = clock()
        let firstDelay = Double(janitor.scheduleMs.first ?? janitor.thenEveryMs) / 1000
        let lease = now.addingTimeInterval(max(30, Double(janitor.pollMs) * 10 / 1000))
        let claimed: [(tenant: UUID, paymentId: String)]
        do {
            claimed = try await payments.claimUnresolved(
                now: now, firstDelay: firstDelay, leaseUntil: lease, limit: janitor.batchSize)
        } catch {
            // A pool closed by a shutdown in progress is not worth an error; an outage is logged once.
            if !Task.isCancelled && !outage.failed(error) {
                logger.error("janitor could not claim payments", metadata: ["error": "\(error)"])
            }
            return 0
        }
        outage.succeeded()
        Self.countActions("unknown payments", claimed.count)
        for item in claimed {
            do {
                try await service.resolveUnknown(tenant: item.tenant, paymentId: item.paymentId)
            } catch {
                logger.warning(
                    "janitor sync failed",
                    metadata: ["tenant.id": "\(item.tenant)", "payment.id": "\(item.paymentId)", "error": "\(error)"])
            }
        }
        let stale = await settleStaleProcessing(now: now, leaseUntil: lease) + (await inquireOverdue(now: now))
        let settled = await settleOpenOperations(now: now, leaseUntil: lease) + (await syncHeldAuthorizations(now: now))
        // Sessions are swept on every look; they do not make the janitor look again sooner.
        await service.sweepSessions(limit: janitor.batchSize)
        await sweepNotifications(now: now)
        await pruneRoutingOutcomes(now: now)
        await pruneNotificationDelays(now: now)
        await decideRollouts(now: now)
        await applyRetention(now: now)
        await settleIdempotencyKeys(now: now)
        await watchDisputePolicy(now: now)
        return claimed.count + stale + settled
    }

    /// Sends the disputes' evidence reminders and closes the ones past their deadline (see
    /// ``DisputeService/watchDeadlines(now:deadlines:limit:)``).
    func watchDisputePolicy(now: Date) async {
        let policy = service.policy.platform
        do {
            try await service.disputes.watchDeadlines(
                now: now, deadlines: policy.disputes, limit: max(1, policy.janitor.batchSize))
        } catch {
            if !Task.isCancelled && !outage.failed(error) {
                logger.warning("dispute deadlines could not be watched", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Settles payments left `processing` past the provider deadline (see ``StaleProcessing``); returns
    /// how many were claimed.
    func settleStaleProcessing(now: Date, leaseUntil: Date) async -> Int {
        let cutoff = now.addingTimeInterval(-StaleProcessing(policy: service.policy.platform).deadline)
        return await claimAndRun(
            "processing payments",
            claim: {
                try await payments.claimStaleProcessing(
                    now: now, cutoff: cutoff, leaseUntil: leaseUntil, limit: service.policy.platform.janitor.batchSize)
            },
            step: { try await service.resolveStale(tenant: $0, paymentId: $1) })
    }

    /// Claims payments with `claim`, then runs `step` on each, logging what fails (`what` names them);
    /// returns how many were claimed.
    func claimAndRun(
        _ what: String, claim: () async throws -> [(tenant: UUID, paymentId: String)],
        step: (UUID, String) async throws -> Void
    ) async -> Int {
        let claimed: [(tenant: UUID, paymentId: String)]
        do {
            claimed = try await claim()
        } catch {
            // A pool closed by a shutdown in progress is not worth an error.
            if !Task.isCancelled {
                logger.error(
                    "janitor could not claim payments", metadata: ["janitor.work": "\(what)", "error": "\(error)"])
            }
            return 0
        }
        Self.countActions(what, claimed.count)
        for item in claimed {
            do {
                try await step(item.tenant, item.paymentId)
            } catch {
                logger.warning(
                    "janitor step failed",
                    metadata: [
                        "janitor.work": "\(what)", "tenant.id": "\(item.tenant)", "payment.id": "\(item.paymentId)",
                        "error": "\(error)",
                    ])
            }
        }
        return claimed.count
    }

    /// Counts `count` items of `work` picked up by a sweep.
    static func countActions(_ work: String, _ count: Int) {
        guard count > 0 else { return }
        Counter(label: MetricName.sweeperActions, dimensions: [("work", work)]).increment(by: count)
    }

    /// Deletes unverifiable notifications older than the policy's retention, a bounded number per look.
    func sweepNotifications(now: Date) async {
        guard let notifications else { return }
        let settings = service.policy.platform.notifications
        do {
            let deleted = try await notifications.purgeUnverified(
                before: now.addingTimeInterval(-settings.retention), limit: 500)
            if deleted > 0 { logger.info("expired notifications deleted", metadata: ["notifications": "\(deleted)"]) }
        } catch {
            if !Task.isCancelled {
                logger.warning("expired notifications could not be deleted", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Runs until the calling task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            let busy = await runOnce()
            let pause = outage.pauseMs(normal: busy > 0 ? 10 : service.policy.platform.janitor.pollMs)
            try? await Task.sleep(for: .milliseconds(pause))
        }
    }
}
