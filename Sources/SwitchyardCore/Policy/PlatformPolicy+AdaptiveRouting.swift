import Foundation

extension PlatformPolicy {
    /// How rules with `strategy: "adaptive"` estimate and rank accounts (`adaptive_routing` in
    /// `policy.json`).
    public struct AdaptiveRouting: Codable, Sendable, Equatable {
        /// Share of payments routed by an exploration draw instead of by rank, so a recovered account is
        /// noticed (0.05 = 5 %).
        public var explorationShare: Double = 0.05
        /// The lowest and highest exploration share a tenant may set for itself.
        public var minExplorationShare: Double = 0.01
        public var maxExplorationShare: Double = 0.2
        /// Most recent definite answers per account × method × currency counted.
        public var windowAttempts: Int = 50
        /// Oldest answer counted, in seconds.
        public var windowSeconds: Int = 3_600
        /// Fewest answers for an account's rate to count; below it the account has "not enough data".
        public var minSamples: Int = 20
        /// Fewest answers in one country for the country's own rate to be used instead of all countries'.
        public var countryMinSamples: Int = 100
        /// Width of the confidence bound in standard deviations (1.96 ≈ 95 %).
        public var confidenceZ: Double = 1.96
        /// How long replicas reuse statistics read from the database, in milliseconds.
        public var statsCacheMs: Int = 2_000
        /// The largest `max_rate_loss` a rule may set, in percentage points.
        public var maxRateLossLimit: Double = 10

        enum CodingKeys: String, CodingKey {
            case explorationShare = "exploration_share"
            case minExplorationShare = "min_exploration_share"
            case maxExplorationShare = "max_exploration_share"
            case windowAttempts = "window_attempts"
            case windowSeconds = "window_seconds"
            case minSamples = "min_samples"
            case countryMinSamples = "country_min_samples"
            case confidenceZ = "confidence_z"
            case statsCacheMs = "stats_cache_ms"
            case maxRateLossLimit = "max_rate_loss_limit"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let d = AdaptiveRouting()
            explorationShare = try c.decodeIfPresent(Double.self, forKey: .explorationShare) ?? d.explorationShare
            minExplorationShare =
                try c.decodeIfPresent(Double.self, forKey: .minExplorationShare) ?? d.minExplorationShare
            maxExplorationShare =
                try c.decodeIfPresent(Double.self, forKey: .maxExplorationShare) ?? d.maxExplorationShare
            windowAttempts = try c.decodeIfPresent(Int.self, forKey: .windowAttempts) ?? d.windowAttempts
            windowSeconds = try c.decodeIfPresent(Int.self, forKey: .windowSeconds) ?? d.windowSeconds
            minSamples = try c.decodeIfPresent(Int.self, forKey: .minSamples) ?? d.minSamples
            countryMinSamples = try c.decodeIfPresent(Int.self, forKey: .countryMinSamples) ?? d.countryMinSamples
            confidenceZ = try c.decodeIfPresent(Double.self, forKey: .confidenceZ) ?? d.confidenceZ
            statsCacheMs = try c.decodeIfPresent(Int.self, forKey: .statsCacheMs) ?? d.statsCacheMs
            maxRateLossLimit = try c.decodeIfPresent(Double.self, forKey: .maxRateLossLimit) ?? d.maxRateLossLimit
            func check(_ ok: Bool, _ key: CodingKeys, _ message: String) throws {
                guard ok else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: c, debugDescription: "adaptive_routing.\(key.rawValue) \(message)")
                }
            }
            try check((0...1).contains(minExplorationShare), .minExplorationShare, "must be between 0 and 1")
            try check(
                (minExplorationShare...1).contains(maxExplorationShare), .maxExplorationShare,
                "must be between min_exploration_share and 1")
            try check(
                (minExplorationShare...maxExplorationShare).contains(explorationShare), .explorationShare,
                "must be between min_exploration_share and max_exploration_share")
            try check((1...100_000).contains(windowAttempts), .windowAttempts, "must be between 1 and 100000")
            try check((60...2_592_000).contains(windowSeconds), .windowSeconds, "must be between 60 and 2592000")
            try check((1...windowAttempts).contains(minSamples), .minSamples, "must be between 1 and window_attempts")
            try check((1...100_000).contains(countryMinSamples), .countryMinSamples, "must be between 1 and 100000")
            try check((0...10).contains(confidenceZ), .confidenceZ, "must be between 0 and 10")
            try check((0...60_000).contains(statsCacheMs), .statsCacheMs, "must be between 0 and 60000")
            try check((0...100).contains(maxRateLossLimit), .maxRateLossLimit, "must be between 0 and 100")
        }

        /// The `adaptive_routing` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> AdaptiveRouting {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(
                AdaptiveRouting.self, forKey: .adaptiveRouting) ?? AdaptiveRouting()
        }

        private enum SectionKey: String, CodingKey {
            case adaptiveRouting = "adaptive_routing"
        }

        /// The statistics window at `now`.
        public func window(at now: Date) -> AuthorizationStatsWindow {
            AuthorizationStatsWindow(attempts: windowAttempts, since: now.addingTimeInterval(-Double(windowSeconds)))
        }
    }
}
