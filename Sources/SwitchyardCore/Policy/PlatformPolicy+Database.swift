import Foundation

extension PlatformPolicy {
    /// The server's PostgreSQL connection pool. Read at start; a policy reload does not change it. The
    /// longest wait for a free connection is `server.database_acquire_timeout_ms` (then `503 database_busy`).
    ///
    /// The keepalive keys bound how long a connection to a vanished server (a crashed host, a failover)
    /// goes unnoticed: about `keepalives_idle_seconds + keepalives_interval_seconds × keepalives_count`
    /// when idle, `tcp_user_timeout_ms` with data unacknowledged (10 s each by default). A value the
    /// connection string sets itself wins.
    public struct Database: Codable, Sendable, Equatable {
        /// Connections the server keeps open to PostgreSQL (`pool_size`); nil keeps the server's default
        /// (8). Values are held between 1 and ``poolSizeRange``'s upper bound.
        public var poolSize: Int?

        /// The pool sizes a policy may ask for.
        public static let poolSizeRange = 1...256

        /// Seconds of silence before the first TCP keepalive probe (`keepalives_idle_seconds`), 1…3600;
        /// nil keeps 4.
        public var keepalivesIdleSeconds: Int?
        /// Seconds between unanswered probes (`keepalives_interval_seconds`), 1…600; nil keeps 2.
        public var keepalivesIntervalSeconds: Int?
        /// Unanswered probes before the connection is dropped (`keepalives_count`), 1…100; nil keeps 3.
        public var keepalivesCount: Int?
        /// Milliseconds sent data may stay unacknowledged (`tcp_user_timeout_ms`), 0…3 600 000 (0: the
        /// system's); nil keeps 10 000.
        public var tcpUserTimeoutMs: Int?

        enum CodingKeys: String, CodingKey {
            case poolSize = "pool_size"
            case keepalivesIdleSeconds = "keepalives_idle_seconds"
            case keepalivesIntervalSeconds = "keepalives_interval_seconds"
            case keepalivesCount = "keepalives_count"
            case tcpUserTimeoutMs = "tcp_user_timeout_ms"
        }

        public init(
            poolSize: Int? = nil, keepalivesIdleSeconds: Int? = nil, keepalivesIntervalSeconds: Int? = nil,
            keepalivesCount: Int? = nil, tcpUserTimeoutMs: Int? = nil
        ) {
            self.poolSize = poolSize
            self.keepalivesIdleSeconds = keepalivesIdleSeconds
            self.keepalivesIntervalSeconds = keepalivesIntervalSeconds
            self.keepalivesCount = keepalivesCount
            self.tcpUserTimeoutMs = tcpUserTimeoutMs
        }

        /// The keepalive settings to use, each held within its range or its default when unset.
        public var keepalive: (idleSeconds: Int, intervalSeconds: Int, count: Int, tcpUserTimeoutMs: Int) {
            (
                Self.held(keepalivesIdleSeconds, 1...3600, default: 4),
                Self.held(keepalivesIntervalSeconds, 1...600, default: 2),
                Self.held(keepalivesCount, 1...100, default: 3),
                Self.held(tcpUserTimeoutMs, 0...3_600_000, default: 10_000)
            )
        }

        private static func held(_ value: Int?, _ range: ClosedRange<Int>, default fallback: Int) -> Int {
            guard let value else { return fallback }
            return min(max(range.lowerBound, value), range.upperBound)
        }

        /// The pool size to use: the policy's, held within ``poolSizeRange``, else `fallback`.
        public func poolSize(default fallback: Int) -> Int {
            Self.held(poolSize, Self.poolSizeRange, default: fallback)
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
