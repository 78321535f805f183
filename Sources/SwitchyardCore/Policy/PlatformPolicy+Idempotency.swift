import Foundation

extension PlatformPolicy {
    /// How long a request owns an `Idempotency-Key` it is running before another request with the same key
    /// and body may take it over and resume, and how the keys of a server incarnation that died are found:
    /// each server records every `heartbeatIntervalMs` that it is alive, and the janitors of the other
    /// replicas release the keys of one silent for `silenceLimitMs`.
    public struct Idempotency: Codable, Sendable, Equatable {
        /// The lease in milliseconds; by default twice the default provider timeout.
        public var leaseMs: Int = 30_000
        /// How often a running server records that it is alive, in milliseconds.
        public var heartbeatIntervalMs: Int = 2_000
        /// How long a server may stay silent before another replica's janitor releases the keys it holds, in
        /// milliseconds; at least ``minimumSilenceBeats`` heartbeat intervals, so a late beat or two never
        /// frees the keys of a live server.
        public var silenceLimitMs: Int = 15_000

        enum CodingKeys: String, CodingKey {
            case leaseMs = "lease_ms"
            case heartbeatIntervalMs = "heartbeat_interval_ms"
            case silenceLimitMs = "silence_limit_ms"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Idempotency()
            leaseMs = try c.decodeIfPresent(Int.self, forKey: .leaseMs) ?? defaults.leaseMs
            heartbeatIntervalMs =
                try c.decodeIfPresent(Int.self, forKey: .heartbeatIntervalMs) ?? defaults.heartbeatIntervalMs
            silenceLimitMs = try c.decodeIfPresent(Int.self, forKey: .silenceLimitMs) ?? defaults.silenceLimitMs
            if let problem = problem() {
                throw DecodingError.dataCorruptedError(forKey: problem.key, in: c, debugDescription: problem.message)
            }
        }

        /// The first value out of its range, or a silence limit too close to the heartbeat interval, with
        /// the key it is about; nil when the values make sense.
        func problem() -> (key: CodingKeys, message: String)? {
            typealias Problem = (key: CodingKeys, message: String)
            func range(_ key: CodingKeys, _ value: Int, _ range: ClosedRange<Int>) -> Problem? {
                range.contains(value)
                    ? nil
                    : (key, "idempotency.\(key.rawValue) must be between \(range.lowerBound) and \(range.upperBound)")
            }
            if let problem = range(.leaseMs, leaseMs, Self.leaseRange)
                ?? range(.heartbeatIntervalMs, heartbeatIntervalMs, Self.heartbeatIntervalRange)
                ?? range(.silenceLimitMs, silenceLimitMs, Self.silenceLimitRange)
            {
                return problem
            }
            // Both are bounded above, so the product cannot overflow.
            let least = heartbeatIntervalMs * Self.minimumSilenceBeats
            guard silenceLimitMs >= least else {
                return (
                    .silenceLimitMs,
                    "idempotency.silence_limit_ms must be at least \(Self.minimumSilenceBeats) times "
                        + "idempotency.heartbeat_interval_ms (\(heartbeatIntervalMs)): at least \(least), not "
                        + "\(silenceLimitMs)"
                )
            }
            return nil
        }

        /// The lease values accepted in `policy.json`, in milliseconds.
        public static let leaseRange = 1_000...86_400_000
        /// The heartbeat intervals accepted in `policy.json`, in milliseconds.
        public static let heartbeatIntervalRange = 100...60_000
        /// The silence limits accepted in `policy.json`, in milliseconds (at most one hour: the keys of a dead
        /// server stay blocked that long).
        public static let silenceLimitRange = 1_000...3_600_000
        /// The fewest heartbeat intervals the silence limit spans.
        public static let minimumSilenceBeats = 3

        /// The `idempotency` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> Idempotency {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(Idempotency.self, forKey: .idempotency)
                ?? Idempotency()
        }

        private enum SectionKey: String, CodingKey {
            case idempotency
        }

        /// The lease in seconds, between one second and one day (a shorter lease would let a retry take over
        /// a request still talking to its provider; a longer one keeps a crashed request's key blocked).
        public var lease: TimeInterval {
            TimeInterval(Self.clamp(leaseMs, Self.leaseRange)) / 1000
        }

        /// `value` brought within `range`.
        private static func clamp(_ value: Int, _ range: ClosedRange<Int>) -> Int {
            min(max(range.lowerBound, value), range.upperBound)
        }

        /// The heartbeat interval in seconds, within ``heartbeatIntervalRange``.
        public var heartbeatInterval: TimeInterval {
            TimeInterval(Self.clamp(heartbeatIntervalMs, Self.heartbeatIntervalRange)) / 1000
        }

        /// The silence limit in seconds, within ``silenceLimitRange`` and never below ``minimumSilenceBeats``
        /// heartbeat intervals (a policy built in code is not checked as a decoded one is).
        public var silenceLimit: TimeInterval {
            let least = Self.clamp(heartbeatIntervalMs, Self.heartbeatIntervalRange) * Self.minimumSilenceBeats
            return TimeInterval(max(least, Self.clamp(silenceLimitMs, Self.silenceLimitRange))) / 1000
        }
    }
}
