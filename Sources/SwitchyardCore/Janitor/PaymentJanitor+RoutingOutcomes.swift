import Foundation

extension PaymentJanitor {
    /// Deletes recorded answers older than both the statistics window (`adaptive_routing.window_seconds`)
    /// and `retention.routing_outcomes_hours`, at most `retention.batch_size` per look and paced like the other
    /// retention deletes (`retention.interval_seconds`), through the janitor's `outcomes` store (none: nothing
    /// is pruned).
    func pruneRoutingOutcomes(now: Date) async {
        guard let store = outcomes else { return }
        let platform = service.policy.platform
        let cutoff = platform.retention.routingOutcomesCutoff(
            window: platform.adaptiveRouting.window(at: now).since, at: now)
        await deleteExpired("routing_outcomes", at: now) {
            try await store.pruneRoutingOutcomes(before: cutoff, limit: platform.retention.batch)
        }
    }
}
