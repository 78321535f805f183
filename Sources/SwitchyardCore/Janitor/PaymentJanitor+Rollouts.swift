import Foundation

extension PaymentJanitor {
    /// Decides every running guarded rollout, walking them `janitor.batch_size` at a time: each rolled back or
    /// promoted by its ``RolloutDecision`` is ended in the database, audited and announced by the store. Each
    /// is decided in a transaction of its own, so one that fails neither blocks the others nor keeps the walk
    /// from reaching rollouts started later. Every replica's janitor looks; a rollout being decided by another
    /// is skipped (`SKIP LOCKED`).
    func decideRollouts(now: Date) async {
        guard let rollouts else { return }
        let page = max(1, service.policy.platform.janitor.batchSize)
        var after: UUID?
        do {
            while true {
                let running = try await rollouts.runningRollouts(after: after, limit: page)
                for item in running {
                    try await decideRollout(item.rollout, of: item.tenant, in: rollouts, now: now)
                }
                guard running.count == page, let last = running.last else { break }
                after = last.rollout
            }
        } catch {
            // A pool closed by a shutdown in progress is not worth a warning.
            if !Task.isCancelled {
                logger.warning("routing rollouts could not be decided", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Decides one rollout; a failure of its own is logged and the walk goes on, while a database that cannot
    /// be reached ends the walk (every other rollout would fail the same way).
    private func decideRollout(_ id: UUID, of tenant: UUID, in rollouts: any RolloutRepository, now: Date)
        async throws
    {
        do {
            guard let end = try await rollouts.decideRollout(tenant: tenant, id: id, now: now) else { return }
            logger.info(
                "routing rollout ended",
                metadata: [
                    "tenant.id": "\(end.tenant)", "rollout.id": "\(end.rollout.id)",
                    "rollout.status": "\(end.status.rawValue)", "rollout.reason": "\(end.reason)",
                    "routing.version": "\(end.liveVersion)",
                ])
        } catch  where !error.isStorageUnavailable && !Task.isCancelled {
            logger.warning(
                "routing rollout could not be decided",
                metadata: ["tenant.id": "\(tenant)", "rollout.id": "\(id)", "error": "\(error)"])
        }
    }
}
