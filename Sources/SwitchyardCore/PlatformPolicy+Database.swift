import Foundation

extension PlatformPolicy {
    /// The server's PostgreSQL connection pool. Read at start; a policy reload does not change it. The
    /// longest wait for a free connection is `server.database_acquire_timeout_ms` (then `503 database_busy`).
    public struct Database: Codable, Sendable, Equatable {
        /// Connections the server keeps open to PostgreSQL (`pool_size`); nil keeps the server's default
        /// (8). Values are held between 1 and ``poolSizeRange``'s upper bound.
        public var poolSize: Int?

        /// The pool sizes a policy may ask for.
        public static let poolSizeRange = 1...256

        enum CodingKeys: String, CodingKey {
            case poolSize = "pool_size"
        }

        public init(poolSize: Int? = nil) {
            self.poolSize = poolSize
        }

        /// The pool size to use: the policy's, held within ``poolSizeRange``, else `fallback`.
        public func poolSize(default fallback: Int) -> Int {
            guard let poolSize else { return fallback }
            return min(max(Self.poolSizeRange.lowerBound, poolSize), Self.poolSizeRange.upperBound)
        }

        /// The `database` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> Database {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(Database.self, forKey: .database)
                ?? Database()
        }

        private enum SectionKey: String, CodingKey {
            case database
        }
    }
}
