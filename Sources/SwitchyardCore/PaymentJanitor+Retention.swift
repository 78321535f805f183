import Foundation
import Metrics
import SwitchyardObservability

extension PaymentJanitor {
    /// Deletes one bounded batch (`retention.batch_size`) of each ``RetentionKind`` whose retention has
    /// passed, each kind in its own statement so no look holds many locks or waits on a busy row. What is
    /// left waits for the next look. Retention does not make the janitor look again sooner.
    func applyRetention(now: Date) async {
        guard let retention else { return }
        let policy = service.policy.platform.retention
        for kind in RetentionKind.allCases {
            let cutoff = policy.cutoff(kind, at: now)
            await deleteExpired(kind.rawValue) {
                try await retention.deleteExpired(kind, before: cutoff, limit: policy.batch)
            }
        }
    }

    /// Runs one retention delete of `kind` (the `kind` label of ``MetricName/retentionDeleted``), counting
    /// what it deleted and logging what fails.
    func deleteExpired(_ kind: String, _ delete: () async throws -> Int) async {
        do {
            let deleted = try await delete()
            guard deleted > 0 else { return }
            Counter(label: MetricName.retentionDeleted, dimensions: [("kind", kind)]).increment(by: deleted)
            logger.debug(
                "expired rows deleted", metadata: ["retention.kind": "\(kind)", "retention.rows": "\(deleted)"])
        } catch {
            // A pool closed by a shutdown in progress is not worth a warning.
            if !Task.isCancelled {
                logger.warning(
                    "expired rows could not be deleted", metadata: ["retention.kind": "\(kind)", "error": "\(error)"])
            }
        }
    }
}
