import Foundation

/// How a guarded rollout ended.
public enum RolloutStatus: String, Codable, Sendable, Equatable {
    case running
    /// The draft became the live routing.
    case promoted
    /// The draft was shown worse than its guardrail allows; live unchanged.
    case rolledBack = "rolled_back"
    /// Stopped by the tenant or the operator; live unchanged.
    case stopped
}

/// A rollout that ended: what became of it and the figures that decided.
public struct RolloutEnd: Sendable, Equatable {
    public var tenant: UUID
    public var rollout: RoutingRollout
    public var status: RolloutStatus
    /// `guardrail_breached`, `within_guardrail`, `max_duration` or `stopped`.
    public var reason: String
    public var figures: RolloutDecision.Figures
    /// The live routing version afterwards (the promoted draft's new version, or the unchanged one).
    public var liveVersion: Int
    /// The mode of the endpoints its announcement goes to: a routing governs the payments of test and live
    /// keys alike, so an end is announced once in each mode (``Livemode``).
    public var livemode = false

    public init(
        tenant: UUID, rollout: RoutingRollout, status: RolloutStatus, reason: String,
        figures: RolloutDecision.Figures, liveVersion: Int
    ) {
        self.tenant = tenant
        self.rollout = rollout
        self.status = status
        self.reason = reason
        self.figures = figures
        self.liveVersion = liveVersion
    }
}

/// Storage of guarded rollouts. The state lives in the database so every replica sees the same rollout;
/// each change is audited and announced to the tenant's webhook endpoints in the transaction that makes it.
public protocol RolloutRepository: Sendable {
    /// Stores `rules` as a draft routing version next to the live one and starts a rollout of it; refused
    /// with `rollout_running` (409) when the tenant has one running, `routing_version_conflict` when
    /// `expectedVersion` is given and is not the live version.
    func startRollout(
        tenant: UUID, id: UUID, rules: [RoutingRule], settings: RolloutSettings, actor: String, expectedVersion: Int?
    ) async throws -> RoutingRollout
    /// The tenant's running rollout with its decision as of now (the answers each arm got), nil when none
    /// runs.
    func runningRollout(tenant: UUID) async throws -> (rollout: RoutingRollout, decision: RolloutDecision)?
    /// Stops the tenant's running rollout (live unchanged); refused with `not_found` when none runs.
    func stopRollout(tenant: UUID, actor: String, at now: Date) async throws -> RolloutEnd
    /// The running rollouts of every tenant, at most `limit` of them ordered by rollout id and after
    /// `after` when given: the pages of the janitor's walk over all of them.
    func runningRollouts(after: UUID?, limit: Int) async throws -> [(tenant: UUID, rollout: UUID)]
    /// Decides the tenant's running rollout `id` by its ``RolloutDecision`` as of `now`, in a transaction of its
    /// own, unless another replica is deciding it: a promotion or rollback is applied (a new live version for a
    /// promotion), audited and announced. Returns the end, nil when the rollout runs on, has ended or is busy.
    func decideRollout(tenant: UUID, id: UUID, now: Date) async throws -> RolloutEnd?
    /// The selected rollout with its state, figures and curves in at most `buckets` buckets (see
    /// ``RolloutSeries``), from its start to its end or `now`; nil when there is no such rollout.
    func rolloutHistory(tenant: UUID, _ selection: RolloutSelection, buckets: Int, now: Date) async throws
        -> RolloutHistory?
}
