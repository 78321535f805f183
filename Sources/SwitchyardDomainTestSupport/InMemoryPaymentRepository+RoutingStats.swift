import Foundation
import SwitchyardCore

extension InMemoryPaymentRepository {
    /// One attempt's definite answer, with the payment's method, currency and country.
    struct RoutingOutcome {
        var attemptId: String
        var tenantId: UUID
        var accountId: UUID
        var method: String
        var currency: String
        var country: String
        var approved: Bool
        var decidedAt: Date
        /// The guarded rollout the payment was routed under, and its arm (nil outside a rollout), as the
        /// store records them: a rollout counts its own payments' answers only.
        var rolloutId: UUID?
        var arm: RolloutArm?
    }

    /// Deletes answers decided before `cutoff`, at most `limit` of them; returns how many.
    public func pruneRoutingOutcomes(before cutoff: Date, limit: Int) -> Int {
        transact { state in
            let old = state.outcomes.values.filter { $0.decidedAt < cutoff }.prefix(max(0, limit))
            for outcome in old { state.outcomes[outcome.attemptId] = nil }
            return old.count
        }
    }
}

extension InMemoryPaymentRepository: RoutingStatsRepository {
    public func authorizationStats(tenant: UUID, window: AuthorizationStatsWindow) async throws
        -> [AuthorizationStats]
    {
        let outcomes = transact { state in
            state.outcomes.values.filter { $0.tenantId == tenant && $0.decidedAt >= window.since }
        }
        // Newest first, as the store numbers them.
        let newestFirst = outcomes.sorted { ($0.decidedAt, $0.attemptId) > ($1.decidedAt, $1.attemptId) }
        struct Key: Hashable {
            var account: UUID
            var method: String
            var currency: String
            var country: String?
        }
        var stats: [Key: AuthorizationStats] = [:]
        var order: [Key] = []
        func count(_ outcome: RoutingOutcome, country: String?) {
            let key = Key(
                account: outcome.accountId, method: outcome.method, currency: outcome.currency, country: country)
            var entry =
                stats[key]
                ?? AuthorizationStats(
                    accountId: outcome.accountId, method: outcome.method, currency: outcome.currency, country: country,
                    approved: 0, declined: 0, newest: outcome.decidedAt)
            guard entry.samples < window.attempts else { return }
            if stats[key] == nil { order.append(key) }
            if outcome.approved { entry.approved += 1 } else { entry.declined += 1 }
            stats[key] = entry
        }
        for outcome in newestFirst {
            count(outcome, country: nil)
            count(outcome, country: outcome.country)
        }
        return order.compactMap { stats[$0] }
    }
}

extension InMemoryPaymentRepository.State {
    /// Records an attempt's definite answer unless the attempt has one already.
    mutating func recordOutcome(of attempt: Attempt) {
        guard outcomes[attempt.id] == nil, let approved = AuthorizationStats.counts(attempt.outcome),
            let payment = payments[attempt.paymentId]?.payment
        else { return }
        outcomes[attempt.id] = InMemoryPaymentRepository.RoutingOutcome(
            attemptId: attempt.id, tenantId: payment.tenantId, accountId: attempt.accountId, method: payment.method,
            currency: payment.currency, country: payment.country, approved: approved,
            decidedAt: attempt.finishedAt ?? attempt.startedAt, rolloutId: payment.routing?.rolloutId,
            arm: payment.routing?.arm)
    }
}

extension InMemoryPaymentRepository: RoutingOutcomeRetention {}
