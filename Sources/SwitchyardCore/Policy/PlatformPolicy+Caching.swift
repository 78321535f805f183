import Foundation

extension PlatformPolicy {
    /// How long a replica keeps tenants' configuration (policy, routing, accounts) and API keys in memory.
    ///
    /// Writes invalidate cached entries on every replica at once (through the database's change
    /// notifications); the lifetime is only a safety net for a notification that was missed.
    public struct Caching: Codable, Sendable, Equatable {
        /// Longest time an entry is served from memory, in milliseconds; 0 turns caching off.
        public var ttlMs: Int = 5_000
        /// Most entries each cache holds; the oldest is dropped first.
        public var maxEntries: Int = 10_000

        enum CodingKeys: String, CodingKey {
            case ttlMs = "ttl_ms"
            case maxEntries = "max_entries"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            ttlMs = try c.decodeIfPresent(Int.self, forKey: .ttlMs) ?? Caching().ttlMs
            maxEntries = try c.decodeIfPresent(Int.self, forKey: .maxEntries) ?? Caching().maxEntries
            guard Self.ttlRange.contains(ttlMs) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .ttlMs, in: c,
                    debugDescription: "cache.ttl_ms must be between \(Self.ttlRange.lowerBound) and "
                        + "\(Self.ttlRange.upperBound)")
            }
            guard Self.entriesRange.contains(maxEntries) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .maxEntries, in: c,
                    debugDescription: "cache.max_entries must be between \(Self.entriesRange.lowerBound) and "
                        + "\(Self.entriesRange.upperBound)")
            }
        }

        /// The lifetimes accepted in `policy.json`, in milliseconds.
        public static let ttlRange = 0...60_000
        /// The sizes accepted in `policy.json`.
        public static let entriesRange = 1...1_000_000

        /// The `cache` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> Caching {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(Caching.self, forKey: .cache)
                ?? Caching()
        }

        private enum SectionKey: String, CodingKey {
            case cache
        }

        /// The settings of one cache.
        public var settings: CacheSettings {
            CacheSettings(ttl: TimeInterval(ttlMs) / 1000, maxEntries: maxEntries)
        }
    }
}
