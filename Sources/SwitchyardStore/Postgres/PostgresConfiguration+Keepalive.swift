extension PostgresConfiguration {
    /// How soon a connection notices a server that vanished without closing it (a crashed host, a failover
    /// that moved the address): TCP keepalives and `tcp_user_timeout`, sent as libpq connection parameters.
    ///
    /// With the defaults an idle connection to a silent server is declared dead after about
    /// `idleSeconds + intervalSeconds × count` = 10 s, and one with unacknowledged data after
    /// `tcpUserTimeoutMs` = 10 s. A value the connection string sets itself wins.
    public struct Keepalive: Sendable, Equatable {
        /// `keepalives_idle`: seconds of silence before the first probe.
        public var idleSeconds = 4
        /// `keepalives_interval`: seconds between unanswered probes.
        public var intervalSeconds = 2
        /// `keepalives_count`: unanswered probes before the connection is dropped.
        public var count = 3
        /// `tcp_user_timeout`: milliseconds sent data may stay unacknowledged; 0 keeps the system's.
        public var tcpUserTimeoutMs = 10_000

        /// Creates the settings (values below 1, or below 0 for `tcpUserTimeoutMs`, are raised to that).
        public init(idleSeconds: Int = 4, intervalSeconds: Int = 2, count: Int = 3, tcpUserTimeoutMs: Int = 10_000) {
            self.idleSeconds = idleSeconds
            self.intervalSeconds = intervalSeconds
            self.count = count
            self.tcpUserTimeoutMs = tcpUserTimeoutMs
        }

        /// The libpq connection parameters, in order.
        var parameters: [(String, String)] {
            [
                ("keepalives", "1"),
                ("keepalives_idle", String(max(1, idleSeconds))),
                ("keepalives_interval", String(max(1, intervalSeconds))),
                ("keepalives_count", String(max(1, count))),
                ("tcp_user_timeout", String(max(0, tcpUserTimeoutMs))),
            ]
        }
    }
}
