import Foundation
import Metrics
import SwitchyardObservability

extension PaymentJanitor {
    /// Frees the `Idempotency-Key`s no request will answer any more, one bounded batch (`janitor.batch_size`)
    /// per look: first those held by server incarnations silent for the policy's
    /// ``PlatformPolicy/Idempotency/silenceLimit`` (`idempotency.silence_limit_ms`), then
    /// those still in progress past their lease (answered with the payment or refund linked to them, else
    /// released). Counted by `action` in ``MetricName/idempotencyKeysSettled``. Does not make the janitor
    /// look again sooner.
    func settleIdempotencyKeys(now: Date) async {
        let policy = service.policy.platform
        let limit = policy.janitor.batchSize
        if let instances,
            let released = await settlingKeys(
                "instance_released",
                {
                    try await instances.registry.releaseKeysOfSilentInstances(
                        silentSince: now.addingTimeInterval(-policy.idempotency.silenceLimit), except: instances.own,
                        now: now,
                        limit: limit)
                })
        {
            counted("instance_released", released)
        }
        if let keys,
            let settled = await settlingKeys("expired", { try await keys.settleExpiredKeys(now: now, limit: limit) })
        {
            counted("completed", settled.completed)
            counted("released", settled.released)
        }
    }

    /// What one look at keys (`work` names it in the logs) did; nil when it failed (logged, once per outage).
    private func settlingKeys<T>(_ work: String, _ settle: () async throws -> T) async -> T? {
        do {
            return try await settle()
        } catch {
            // A pool closed by a shutdown in progress is not worth a warning; an outage is logged once.
            if !Task.isCancelled && !outage.failed(error) {
                logger.warning(
                    "idempotency keys could not be settled",
                    metadata: ["idempotency.work": "\(work)", "error.message": "\(String(describing: error))"])
            }
            return nil
        }
    }

    /// Counts and logs `count` keys settled by `action`.
    private func counted(_ action: String, _ count: Int) {
        guard count > 0 else { return }
        Counter(label: MetricName.idempotencyKeysSettled, dimensions: [("action", action)]).increment(by: count)
        logger.info(
            "idempotency keys settled", metadata: ["idempotency.action": "\(action)", "idempotency.keys": "\(count)"])
    }
}
