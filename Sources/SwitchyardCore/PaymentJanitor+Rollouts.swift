import Foundation

extension PaymentJanitor {
    /// Decides the running guarded rollouts (at most `janitor.batch_size` per look): each rolled back or
    /// promoted by its ``RolloutDecision`` is ended in the database, audited and announced by the store.
    /// Every replica's janitor looks; the rows are locked with `SKIP LOCKED`, so one decides each.
    func decideRollouts(now: Date) async {
        guard let rollouts else { return }
        do {
            for end in try await rollouts.decideRollouts(now: now, limit: service.policy.platform.janitor.batchSize) {
                logger.info(
                    "routing rollout ended",
                    metadata: [
                        "tenant.id": "\(end.tenant)", "rollout.id": "\(end.rollout.id)",
                        "rollout.status": "\(end.status.rawValue)", "rollout.reason": "\(end.reason)",
                        "routing.version": "\(end.liveVersion)",
                    ])
            }
        } catch {
            // A pool closed by a shutdown in progress is not worth a warning.
            if !Task.isCancelled {
                logger.warning("routing rollouts could not be decided", metadata: ["error": "\(error)"])
            }
        }
    }
}
