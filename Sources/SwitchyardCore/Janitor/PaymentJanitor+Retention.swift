import Foundation
import Metrics
import SwitchyardObservability

extension PaymentJanitor {
    /// Deletes one bounded batch (`retention.batch_size`) of each ``RetentionKind`` whose retention has
    /// passed, each kind in its own statement so no look holds many locks or waits on a busy row. A kind is
    /// deleted at most every `retention.interval_seconds`, unless its previous batch came back full: what is
    /// left then goes on the next look. Retention does not make the janitor look again sooner.
    func applyRetention(now: Date) async {
        guard let retention else { return }
        let policy = service.policy.platform.retention
        for kind in RetentionKind.allCases {
            let cutoff = policy.cutoff(kind, at: now)
            await deleteExpired(kind.rawValue, at: now) {
                try await retention.deleteExpired(kind, before: cutoff, limit: policy.batch)
            }
        }
    }

    /// Runs one retention delete of `kind` (the `kind` label of ``MetricName/retentionDeleted``) when it is
    /// due at `now` (see ``RetentionPacer``), counting what it deleted and logging what fails. A failed delete
    /// waits for the interval like an empty one.
    func deleteExpired(_ kind: String, at now: Date, _ delete: () async throws -> Int) async {
        let policy = service.policy.platform.retention
        guard retentionPacer.isDue(kind, at: now, interval: policy.interval) else { return }
        do {
            let deleted = try await delete()
            retentionPacer.ran(kind, at: now, full: deleted >= policy.batch)
            guard deleted > 0 else { return }
            Counter(label: MetricName.retentionDeleted, dimensions: [("kind", kind)]).increment(by: deleted)
            logger.debug(
                "expired rows deleted", metadata: ["retention.kind": "\(kind)", "retention.rows": "\(deleted)"])
        } catch {
            retentionPacer.ran(kind, at: now, full: false)
            // A pool closed by a shutdown in progress is not worth a warning.
            if !Task.isCancelled {
                logger.warning(
                    "expired rows could not be deleted", metadata: ["retention.kind": "\(kind)", "error": "\(error)"])
            }
        }
    }
}
