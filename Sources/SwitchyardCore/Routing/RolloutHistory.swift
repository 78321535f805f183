import Foundation

/// Which of a tenant's guarded rollouts to read.
public enum RolloutSelection: Sendable, Equatable {
    /// The running rollout, else the one started last.
    case current
    /// The running rollout only.
    case running
    /// The most recently started rollout that ended.
    case lastEnded
    /// One rollout by its id.
    case id(UUID)
}

/// A guarded rollout as stored, running or ended: its state, the figures that decide (or decided) it and its
/// curves over time.
public struct RolloutHistory: Sendable, Equatable {
    public var rollout: RoutingRollout
    public var status: RolloutStatus
    /// Why it ended; nil while running.
    public var reason: String?
    /// The figures now for a running rollout, those that decided it for an ended one.
    public var figures: RolloutDecision.Figures
    public var endedAt: Date?
    public var series: RolloutSeries

    public init(
        rollout: RoutingRollout, status: RolloutStatus, reason: String?, figures: RolloutDecision.Figures,
        endedAt: Date?, series: RolloutSeries
    ) {
        self.rollout = rollout
        self.status = status
        self.reason = reason
        self.figures = figures
        self.endedAt = endedAt
        self.series = series
    }
}
