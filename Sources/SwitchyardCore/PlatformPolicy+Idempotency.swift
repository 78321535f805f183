import Foundation

extension PlatformPolicy {
    /// How long a request owns an `Idempotency-Key` it is running before another request with the same key
    /// and body may take it over and resume.
    public struct Idempotency: Codable, Sendable, Equatable {
        /// The lease in milliseconds; by default twice the default provider timeout.
        public var leaseMs: Int = 30_000

        enum CodingKeys: String, CodingKey {
            case leaseMs = "lease_ms"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            leaseMs = try c.decodeIfPresent(Int.self, forKey: .leaseMs) ?? Idempotency().leaseMs
            guard Self.leaseRange.contains(leaseMs) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .leaseMs, in: c,
                    debugDescription: "idempotency.lease_ms must be between \(Self.leaseRange.lowerBound) and "
                        + "\(Self.leaseRange.upperBound)")
            }
        }

        /// The lease values accepted in `policy.json`, in milliseconds.
        public static let leaseRange = 1_000...86_400_000

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
            TimeInterval(min(max(Self.leaseRange.lowerBound, leaseMs), Self.leaseRange.upperBound)) / 1000
        }
    }
}
