import Foundation

extension PlatformPolicy {
    /// Bounds on what one server process spends on its clients and its database connections. Read at
    /// start; a policy reload does not change them.
    public struct Server: Codable, Sendable, Equatable {
        /// A connection without a complete request head for this long, counted from its opening or from
        /// the end of its last answer, is closed, in milliseconds (bytes arriving do not reset it). This
        /// bounds idle keep-alive connections; `requestHeadTimeoutMs` bounds a head being sent.
        public var idleTimeoutMs: Int = 30_000
        /// Time allowed to receive a whole request once its head has arrived, in milliseconds; a client
        /// sending its body slower is disconnected.
        public var requestReadTimeoutMs: Int = 30_000
        /// Time a connection has to send a complete request head, in milliseconds: counted from its opening,
        /// and on a kept-alive connection from the first byte of each further request. A connection that
        /// opens and sends nothing, or sends its head slowly, is closed when it runs out.
        public var requestHeadTimeoutMs: Int = 5_000
        /// Most client connections served at once; further connections are not accepted until one closes
        /// (they wait in the listen backlog). High enough for the idle keep-alive connections of many
        /// clients: an open idle connection costs the server little.
        public var maxConnections: Int = 10_000
        /// Most connections open at once from one client address; a further one from that address is
        /// closed as soon as it is accepted. Below `maxConnections`, so no single address can fill the
        /// server and shut the others (and `/health` probes) out.
        public var maxConnectionsPerAddress: Int = 64
        /// Longest wait for a free database connection before `503 database_busy`, in milliseconds.
        public var databaseAcquireTimeoutMs: Int = 5_000
        /// PostgreSQL `statement_timeout` of every pooled session, in milliseconds.
        public var databaseStatementTimeoutMs: Int = 30_000
        /// PostgreSQL `lock_timeout` of every pooled session, in milliseconds.
        public var databaseLockTimeoutMs: Int = 10_000
        /// PostgreSQL `idle_in_transaction_session_timeout` of every pooled session, in milliseconds.
        public var databaseIdleInTransactionTimeoutMs: Int = 60_000

        enum CodingKeys: String, CodingKey {
            case idleTimeoutMs = "idle_timeout_ms"
            case requestReadTimeoutMs = "request_read_timeout_ms"
            case requestHeadTimeoutMs = "request_head_timeout_ms"
            case maxConnections = "max_connections"
            case maxConnectionsPerAddress = "max_connections_per_address"
            case databaseAcquireTimeoutMs = "database_acquire_timeout_ms"
            case databaseStatementTimeoutMs = "database_statement_timeout_ms"
            case databaseLockTimeoutMs = "database_lock_timeout_ms"
            case databaseIdleInTransactionTimeoutMs = "database_idle_in_transaction_timeout_ms"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let d = Server()
            idleTimeoutMs = try c.decodeIfPresent(Int.self, forKey: .idleTimeoutMs) ?? d.idleTimeoutMs
            requestReadTimeoutMs =
                try c.decodeIfPresent(Int.self, forKey: .requestReadTimeoutMs) ?? d.requestReadTimeoutMs
            requestHeadTimeoutMs =
                try c.decodeIfPresent(Int.self, forKey: .requestHeadTimeoutMs) ?? d.requestHeadTimeoutMs
            maxConnections = try c.decodeIfPresent(Int.self, forKey: .maxConnections) ?? d.maxConnections
            maxConnectionsPerAddress =
                try c.decodeIfPresent(Int.self, forKey: .maxConnectionsPerAddress) ?? d.maxConnectionsPerAddress
            databaseAcquireTimeoutMs =
                try c.decodeIfPresent(Int.self, forKey: .databaseAcquireTimeoutMs) ?? d.databaseAcquireTimeoutMs
            databaseStatementTimeoutMs =
                try c.decodeIfPresent(Int.self, forKey: .databaseStatementTimeoutMs) ?? d.databaseStatementTimeoutMs
            databaseLockTimeoutMs =
                try c.decodeIfPresent(Int.self, forKey: .databaseLockTimeoutMs) ?? d.databaseLockTimeoutMs
            databaseIdleInTransactionTimeoutMs =
                try c.decodeIfPresent(Int.self, forKey: .databaseIdleInTransactionTimeoutMs)
                ?? d.databaseIdleInTransactionTimeoutMs
        }

        /// The first problem with these values, if any.
        public func problem() -> String? {
            if idleTimeoutMs < 1 || requestReadTimeoutMs < 1 || maxConnections < 1 || databaseAcquireTimeoutMs < 1 {
                return "server.idle_timeout_ms, request_read_timeout_ms, max_connections and "
                    + "database_acquire_timeout_ms must be positive"
            }
            if requestHeadTimeoutMs < 1 || maxConnectionsPerAddress < 1 {
                return "server.request_head_timeout_ms and max_connections_per_address must be positive"
            }
            if maxConnectionsPerAddress >= maxConnections {
                return "server.max_connections_per_address must be below max_connections, so that one address "
                    + "cannot fill the server"
            }
            if databaseStatementTimeoutMs < 0 || databaseLockTimeoutMs < 0 || databaseIdleInTransactionTimeoutMs < 0 {
                return "server database timeouts must not be negative (0 disables one)"
            }
            return nil
        }
    }
}
