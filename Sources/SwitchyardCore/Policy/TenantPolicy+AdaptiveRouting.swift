import Foundation

extension TenantPolicy {
    /// The tenant-adjustable part of adaptive routing (`adaptive_routing` in a tenant's policy).
    public struct AdaptiveRouting: Codable, Sendable, Equatable {
        /// Share of the tenant's adaptive payments routed by an exploration draw, within the platform's
        /// `min_exploration_share`…`max_exploration_share`.
        public var explorationShare: Double?

        public init(explorationShare: Double? = nil) {
            self.explorationShare = explorationShare
        }

        enum CodingKeys: String, CodingKey {
            case explorationShare = "exploration_share"
        }
    }

    /// The value of `adaptive_routing.exploration_share` outside the platform's bounds, as messages.
    func looseningAdaptiveRouting(_ platform: PlatformPolicy.AdaptiveRouting) -> [String] {
        guard let v = adaptiveRouting?.explorationShare else { return [] }
        guard v.isFinite, (platform.minExplorationShare...platform.maxExplorationShare).contains(v) else {
            return [
                "adaptive_routing.exploration_share must be between the platform's \(platform.minExplorationShare)"
                    + " and \(platform.maxExplorationShare)"
            ]
        }
        return []
    }

    /// The platform's adaptive routing with this tenant's exploration share, clamped to the platform's
    /// bounds (a value stored before the platform changed them is brought back within).
    public func effectiveAdaptiveRouting(_ platform: PlatformPolicy.AdaptiveRouting) -> PlatformPolicy.AdaptiveRouting {
        var p = platform
        if let v = adaptiveRouting?.explorationShare, v.isFinite {
            p.explorationShare = min(max(v, platform.minExplorationShare), platform.maxExplorationShare)
        }
        return p
    }
}
