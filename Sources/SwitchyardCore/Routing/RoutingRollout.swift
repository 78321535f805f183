import Foundation

/// Which routing a payment of a guarded rollout went through.
public enum RolloutArm: String, Codable, Sendable, Equatable, CaseIterable {
    /// The live routing.
    case control
    /// The draft routing under test.
    case draft
}

/// The limits a guarded rollout runs under.
public struct RolloutSettings: Codable, Sendable, Equatable {
    /// Fraction of traffic (0 < share < 1) routed through the draft.
    public var share: Double
    /// How much lower (a fraction: 0.03 is 3 percentage points) the draft's authorisation rate may be.
    public var guardrail: Double
    /// Answers each arm needs before the draft can be promoted.
    public var minSamples: Int
    /// Longest time the rollout runs; at its end an undecided draft is promoted.
    public var maxDuration: TimeInterval
    /// The error rate of the confidence sequence: the chance that an interval ever misses the difference.
    public var alpha: Double

    public init(share: Double, guardrail: Double, minSamples: Int, maxDuration: TimeInterval, alpha: Double = 0.05) {
        self.share = share
        self.guardrail = guardrail
        self.minSamples = minSamples
        self.maxDuration = maxDuration
        self.alpha = alpha
    }
}

/// A guarded rollout under way: a draft routing that takes a share of a tenant's traffic next to the live
/// one until it is promoted, rolled back or stopped.
public struct RoutingRollout: Codable, Sendable, Equatable {
    public var id: UUID
    public var settings: RolloutSettings
    /// The routing version the draft was stored as.
    public var draftVersion: Int
    /// The draft's rules.
    public var draftRules: [RoutingRule]
    public var startedAt: Date
    /// Who started it.
    public var actor: String

    public init(
        id: UUID, settings: RolloutSettings, draftVersion: Int, draftRules: [RoutingRule], startedAt: Date,
        actor: String
    ) {
        self.id = id
        self.settings = settings
        self.draftVersion = draftVersion
        self.draftRules = draftRules
        self.startedAt = startedAt
        self.actor = actor
    }

    /// The arm of a payment: a stable hash of the rollout and the routing key, so a retry (same key) stays on
    /// its side and every replica agrees.
    public func arm(routingKey: String) -> RolloutArm {
        let bucket = StableHash.fnv1a("rollout|\(id.uuidString.lowercased())|\(routingKey)") % 1_000_000
        return Double(bucket) < settings.share * 1_000_000 ? .draft : .control
    }
}
