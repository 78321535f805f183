import Foundation

extension PaymentJanitor {
    /// The most answers deleted per look; older ones wait for the next look.
    static let routingOutcomePruneLimit = 1_000

    /// Deletes recorded answers older than the statistics window (`adaptive_routing.window_seconds`), a
    /// bounded number per look, when the payment repository records them.
    func pruneRoutingOutcomes(now: Date) async {
        guard let retention = payments as? any RoutingOutcomeRetention else { return }
        let window = service.policy.platform.adaptiveRouting.window(at: now)
        do {
            let deleted = try await retention.pruneRoutingOutcomes(
                before: window.since, limit: Self.routingOutcomePruneLimit)
            if deleted > 0 {
                logger.debug("old routing outcomes deleted", metadata: ["routing.outcomes": "\(deleted)"])
            }
        } catch {
            if !Task.isCancelled {
                logger.warning("old routing outcomes could not be deleted", metadata: ["error": "\(error)"])
            }
        }
    }
}
