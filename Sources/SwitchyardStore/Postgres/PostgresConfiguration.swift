/// How to reach PostgreSQL, how many connections to keep and how long anything may wait.
public struct PostgresConfiguration: Sendable {
    /// A libpq connection string, either `key=value …` or a `postgresql://` URI. It may hold a password,
    /// so it is never logged.
    public var connectionString: String
    /// The number of connections (each with its own thread); at least 1.
    public var poolSize: Int = 8
    /// Seconds to wait for a connection to open; a `connect_timeout` in the connection string wins.
    public var connectTimeoutSeconds: Int = 10
    /// Longest wait for a free pooled connection before ``PGError/Code/poolTimeout`` is thrown; nil waits
    /// for ever.
    public var acquireTimeout: Duration? = .seconds(5)
    /// Server-side limits set on every pooled session.
    public var sessionTimeouts = SessionTimeouts()
    /// TCP keepalives and `tcp_user_timeout` for every connection.
    public var keepalive = Keepalive()

    /// Limits PostgreSQL enforces on each session, in milliseconds; 0 disables one.
    public struct SessionTimeouts: Sendable, Equatable {
        /// `statement_timeout`: a statement running longer is cancelled (SQLSTATE 57014).
        public var statementMs = 30_000
        /// `lock_timeout`: a statement waiting longer for a lock fails (SQLSTATE 55P03).
        public var lockMs = 10_000
        /// `idle_in_transaction_session_timeout`: a session left idle inside a transaction is closed.
        public var idleInTransactionMs = 60_000

        /// Creates the limits.
        public init(statementMs: Int = 30_000, lockMs: Int = 10_000, idleInTransactionMs: Int = 60_000) {
            self.statementMs = statementMs
            self.lockMs = lockMs
            self.idleInTransactionMs = idleInTransactionMs
        }

        /// The `SET` statements applying these limits (negative values count as 0).
        var setup: String {
            "SET statement_timeout TO \(max(0, statementMs)); SET lock_timeout TO \(max(0, lockMs)); "
                + "SET idle_in_transaction_session_timeout TO \(max(0, idleInTransactionMs))"
        }
    }

    /// Creates a configuration.
    public init(
        connectionString: String, poolSize: Int = 8, connectTimeoutSeconds: Int = 10,
        acquireTimeout: Duration? = .seconds(5), sessionTimeouts: SessionTimeouts = SessionTimeouts(),
        keepalive: Keepalive = Keepalive()
    ) {
        self.connectionString = connectionString
        self.poolSize = poolSize
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.acquireTimeout = acquireTimeout
        self.sessionTimeouts = sessionTimeouts
        self.keepalive = keepalive
    }
}
