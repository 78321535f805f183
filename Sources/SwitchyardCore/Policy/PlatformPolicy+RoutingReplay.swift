import Foundation

extension PlatformPolicy {
    /// Bounds of replaying a draft routing over logged traffic (`routing_replay` in `policy.json`).
    public struct ReplayBounds: Codable, Sendable, Equatable {
        /// Most logged payments one replay reads; a larger window is refused.
        public var maxPayments: Int = 10_000
        /// Replays of one tenant running at once on one replica; more are refused with 429.
        public var maxConcurrent: Int = 2
        /// Fewest effective samples a segment needs for a number instead of "not enough evidence".
        public var minEffectiveSamples: Int = 10

        enum CodingKeys: String, CodingKey {
            case maxPayments = "max_payments"
            case maxConcurrent = "max_concurrent"
            case minEffectiveSamples = "min_effective_samples"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let d = ReplayBounds()
            maxPayments = try c.decodeIfPresent(Int.self, forKey: .maxPayments) ?? d.maxPayments
            maxConcurrent = try c.decodeIfPresent(Int.self, forKey: .maxConcurrent) ?? d.maxConcurrent
            minEffectiveSamples =
                try c.decodeIfPresent(Int.self, forKey: .minEffectiveSamples) ?? d.minEffectiveSamples
            func check(_ ok: Bool, _ key: CodingKeys, _ message: String) throws {
                guard ok else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: c, debugDescription: "routing_replay.\(key.rawValue) \(message)")
                }
            }
            try check((1...1_000_000).contains(maxPayments), .maxPayments, "must be between 1 and 1000000")
            try check((1...64).contains(maxConcurrent), .maxConcurrent, "must be between 1 and 64")
            try check(
                (1...1_000_000).contains(minEffectiveSamples), .minEffectiveSamples, "must be between 1 and 1000000")
        }

        /// The `routing_replay` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> ReplayBounds {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(
                ReplayBounds.self, forKey: .routingReplay) ?? ReplayBounds()
        }

        private enum SectionKey: String, CodingKey {
            case routingReplay = "routing_replay"
        }
    }
}
