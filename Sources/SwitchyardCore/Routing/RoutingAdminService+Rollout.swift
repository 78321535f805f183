import Foundation

extension RoutingAdminService {
    /// A rollout started: the draft as stored, with the warnings validation found.
    public struct Started: Sendable, Equatable {
        public var rollout: RoutingRollout
        public var warnings: [RoutingIssue]
    }

    /// Stores `rules` as a draft next to the live routing and starts a guarded rollout of it, after
    /// validating the rules like ``replace(tenant:rules:expectedVersion:actor:)``; `rollout_running` (409)
    /// when one is running already.
    public func startRollout(
        tenant: UUID, rules: [RoutingRule], settings: RolloutSettings, expectedVersion: Int?, actor: String
    ) async throws -> Started {
        let store = try rolloutStore()
        let warnings = try await validate(tenant: tenant, rules: rules)
        let rollout = try await store.startRollout(
            tenant: tenant, id: UUID(), rules: rules, settings: settings, actor: actor,
            expectedVersion: expectedVersion)
        return Started(rollout: rollout, warnings: warnings)
    }

    /// The tenant's running rollout with its current figures, nil when none runs.
    public func rollout(tenant: UUID) async throws -> (rollout: RoutingRollout, decision: RolloutDecision)? {
        try await rollouts?.runningRollout(tenant: tenant)
    }

    /// Stops the tenant's running rollout, live routing unchanged (audited, `routing.rollout.stopped`);
    /// `not_found` when none runs.
    public func stopRollout(tenant: UUID, actor: String, at now: Date) async throws -> RolloutEnd {
        try await rolloutStore().stopRollout(tenant: tenant, actor: actor, at: now)
    }

    /// The selected rollout with its state, figures and curves in at most `buckets` buckets; nil when there
    /// is no such rollout.
    public func rolloutHistory(tenant: UUID, _ selection: RolloutSelection, buckets: Int, at now: Date)
        async throws -> RolloutHistory?
    {
        try await rolloutStore().rolloutHistory(tenant: tenant, selection, buckets: buckets, now: now)
    }

    private func rolloutStore() throws -> any RolloutRepository {
        guard let rollouts else { throw CoreError(.notSupported, "guarded rollouts are not available here") }
        return rollouts
    }
}
