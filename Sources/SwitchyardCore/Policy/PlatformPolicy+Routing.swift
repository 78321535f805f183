import Foundation

extension PlatformPolicy {
    /// How rules with `strategy: "adaptive"` estimate and rank accounts (`adaptive_routing` in
    /// `policy.json`).
    public struct AdaptiveRouting: PolicySection {
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

        public init() {}

        public static let name = "adaptive_routing"
        /// The exploration share's bounds come before the share, so they are checked first.
        public static let fields: [PolicyField<AdaptiveRouting>] = [
            .key(
                "min_exploration_share", \.minExplorationShare, in: 0...1,
                "The lowest exploration share a tenant may set."),
            .key(
                "max_exploration_share", \.maxExplorationShare, from: "min_exploration_share", to: "1",
                { ($0.minExplorationShare, 1) }, "The highest exploration share a tenant may set."),
            .key(
                "exploration_share", \.explorationShare, from: "min_exploration_share", to: "max_exploration_share",
                { ($0.minExplorationShare, $0.maxExplorationShare) },
                "Share of adaptive payments routed by an exploration draw instead of by rank."),
            .key(
                "window_attempts", \.windowAttempts, in: 1...100_000,
                "Most recent answers per account, method and currency counted."),
            .key("window_seconds", \.windowSeconds, in: 60...2_592_000, "Oldest answer counted, in seconds."),
            .key(
                "min_samples", \.minSamples, from: "1", to: "window_attempts", { (1, $0.windowAttempts) },
                "Fewest answers for an account's rate to count."),
            .key(
                "country_min_samples", \.countryMinSamples, in: 1...100_000,
                "Fewest answers in one country for the country's own rate to be used."),
            .key(
                "confidence_z", \.confidenceZ, in: 0...10,
                "Width of the confidence bound in standard deviations."),
            .key(
                "stats_cache_ms", \.statsCacheMs, in: 0...60_000,
                "How long replicas reuse statistics read from the database."),
            .key(
                "max_rate_loss_limit", \.maxRateLossLimit, in: 0...100,
                "The largest max_rate_loss a rule may set, in percentage points."),
        ]

        /// The statistics window at `now`.
        public func window(at now: Date) -> AuthorizationStatsWindow {
            AuthorizationStatsWindow(attempts: windowAttempts, since: now.addingTimeInterval(-Double(windowSeconds)))
        }
    }

    /// Bounds of replaying a draft routing over logged traffic (`routing_replay` in `policy.json`).
    public struct ReplayBounds: PolicySection {
        /// Most logged payments one replay reads; a larger window is refused.
        public var maxPayments: Int = 10_000
        /// Replays of one tenant running at once on one replica; more are refused with 429.
        public var maxConcurrent: Int = 2
        /// Fewest effective samples a segment needs for a number instead of "not enough evidence".
        public var minEffectiveSamples: Int = 10

        public init() {}

        public static let name = "routing_replay"
        public static let fields: [PolicyField<ReplayBounds>] = [
            .key("max_payments", \.maxPayments, in: 1...1_000_000, "Most logged payments one replay reads."),
            .key("max_concurrent", \.maxConcurrent, in: 1...64, "Replays of one tenant at once on a replica."),
            .key(
                "min_effective_samples", \.minEffectiveSamples, in: 1...1_000_000,
                "Fewest effective samples a segment needs for a number."),
        ]
    }
}
