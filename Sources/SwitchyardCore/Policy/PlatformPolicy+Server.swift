import Foundation

extension PlatformPolicy {
    /// Bounds on what one server process spends on its clients and its database connections. Read at
    /// start; a policy reload does not change them.
    public struct Server: PolicySection {
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

        public init() {}

        public static let name = "server"
        public static let fields: [PolicyField<Server>] = [
            .key(
                "idle_timeout_ms", \.idleTimeoutMs,
                "A connection without a complete request head for this long is closed."),
            .key(
                "request_read_timeout_ms", \.requestReadTimeoutMs,
                "Time allowed to receive a whole request once its head has arrived."),
            .key(
                "request_head_timeout_ms", \.requestHeadTimeoutMs,
                "Time a connection has to send a complete request head."),
            .key("max_connections", \.maxConnections, "Most client connections served at once."),
            .key(
                "max_connections_per_address", \.maxConnectionsPerAddress,
                "Most connections open at once from one client address; below max_connections."),
            .key(
                "database_acquire_timeout_ms", \.databaseAcquireTimeoutMs,
                "Longest wait for a free database connection before 503 database_busy."),
            .key(
                "database_statement_timeout_ms", \.databaseStatementTimeoutMs,
                "PostgreSQL statement_timeout of every pooled session; 0 disables it."),
            .key(
                "database_lock_timeout_ms", \.databaseLockTimeoutMs,
                "PostgreSQL lock_timeout of every pooled session; 0 disables it."),
            .key(
                "database_idle_in_transaction_timeout_ms", \.databaseIdleInTransactionTimeoutMs,
                "PostgreSQL idle_in_transaction_session_timeout of every pooled session; 0 disables it."),
        ]

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

    /// What one tenant may ask of one server process: a request rate (a token bucket refilled at
    /// ``requestsPerSecond`` holding at most ``burst`` requests) and a number of requests in progress at
    /// once. The limits are kept in memory per replica, so a tenant served by N replicas may reach N times
    /// them. A tenant's own policy may only tighten them.
    public struct Tenants: PolicySection {
        /// Sustained requests per second per tenant.
        public var requestsPerSecond: Double = 100
        /// Requests a tenant may send at once after being idle (the bucket's size).
        public var burst: Int = 200
        /// Requests of one tenant in progress at once.
        public var maxConcurrentRequests: Int = 100

        public init() {}

        public init(requestsPerSecond: Double, burst: Int, maxConcurrentRequests: Int) {
            self.requestsPerSecond = requestsPerSecond
            self.burst = burst
            self.maxConcurrentRequests = maxConcurrentRequests
        }

        public static let name = "tenants"
        public static let fields: [PolicyField<Tenants>] = [
            .key("requests_per_second", \.requestsPerSecond, "Sustained requests per second per tenant."),
            .key("burst", \.burst, "Requests a tenant may send at once after being idle."),
            .key("max_concurrent_requests", \.maxConcurrentRequests, "Requests of one tenant in progress at once."),
        ]

        /// The first problem with these values, if any.
        public func problem() -> String? {
            guard requestsPerSecond.isFinite, requestsPerSecond > 0, requestsPerSecond <= 1_000_000 else {
                return "tenants.requests_per_second must be positive and at most 1000000"
            }
            if burst < 1 || maxConcurrentRequests < 1 {
                return "tenants.burst and tenants.max_concurrent_requests must be at least 1"
            }
            return nil
        }
    }

    /// The server's PostgreSQL connection pool. Read at start; a policy reload does not change it. The
    /// longest wait for a free connection is `server.database_acquire_timeout_ms` (then `503 database_busy`).
    ///
    /// The keepalive keys bound how long a connection to a vanished server (a crashed host, a failover)
    /// goes unnoticed: about `keepalives_idle_seconds + keepalives_interval_seconds × keepalives_count`
    /// when idle, `tcp_user_timeout_ms` with data unacknowledged (10 s each by default). A value the
    /// connection string sets itself wins. Values out of range are held within it, not refused.
    public struct Database: PolicySection {
        /// Connections the server keeps open to PostgreSQL (`pool_size`); nil keeps the server's default
        /// (8). Values are held between 1 and ``poolSizeRange``'s upper bound.
        public var poolSize: Int?

        /// The pool sizes a policy may ask for.
        public static let poolSizeRange = 1...256

        /// Seconds of silence before the first TCP keepalive probe (`keepalives_idle_seconds`); nil keeps 4.
        public var keepalivesIdleSeconds: Int?
        /// Seconds between unanswered probes (`keepalives_interval_seconds`); nil keeps 2.
        public var keepalivesIntervalSeconds: Int?
        /// Unanswered probes before the connection is dropped (`keepalives_count`); nil keeps 3.
        public var keepalivesCount: Int?
        /// Milliseconds sent data may stay unacknowledged (`tcp_user_timeout_ms`, 0: the system's); nil
        /// keeps 10 000.
        public var tcpUserTimeoutMs: Int?

        public init() {}

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

        /// The held ranges and the defaults of the keepalive keys.
        static let keepalivesIdle = (range: 1...3600, default: 4)
        static let keepalivesInterval = (range: 1...600, default: 2)
        static let keepalivesProbes = (range: 1...100, default: 3)
        static let tcpUserTimeout = (range: 0...3_600_000, default: 10_000)

        public static let name = "database"
        public static let fields: [PolicyField<Database>] = [
            .optional(
                "pool_size", \.poolSize, shownDefault: "8", range: held(poolSizeRange),
                "Connections the server keeps open to PostgreSQL."),
            .optional(
                "keepalives_idle_seconds", \.keepalivesIdleSeconds, shownDefault: "\(keepalivesIdle.default)",
                range: held(keepalivesIdle.range), "Seconds of silence before the first TCP keepalive probe."),
            .optional(
                "keepalives_interval_seconds", \.keepalivesIntervalSeconds,
                shownDefault: "\(keepalivesInterval.default)", range: held(keepalivesInterval.range),
                "Seconds between unanswered keepalive probes."),
            .optional(
                "keepalives_count", \.keepalivesCount, shownDefault: "\(keepalivesProbes.default)",
                range: held(keepalivesProbes.range), "Unanswered probes before the connection is dropped."),
            .optional(
                "tcp_user_timeout_ms", \.tcpUserTimeoutMs, shownDefault: "\(tcpUserTimeout.default)",
                range: held(tcpUserTimeout.range), "Milliseconds sent data may stay unacknowledged (0: the system's)."),
        ]

        /// A held range as the reference shows it.
        private static func held(_ range: ClosedRange<Int>) -> String {
            "\(range.lowerBound) to \(range.upperBound) (held within)"
        }

        /// The keepalive settings to use, each held within its range or its default when unset.
        public var keepalive: (idleSeconds: Int, intervalSeconds: Int, count: Int, tcpUserTimeoutMs: Int) {
            (
                Self.held(keepalivesIdleSeconds, Self.keepalivesIdle.range, default: Self.keepalivesIdle.default),
                Self.held(
                    keepalivesIntervalSeconds, Self.keepalivesInterval.range, default: Self.keepalivesInterval.default),
                Self.held(keepalivesCount, Self.keepalivesProbes.range, default: Self.keepalivesProbes.default),
                Self.held(tcpUserTimeoutMs, Self.tcpUserTimeout.range, default: Self.tcpUserTimeout.default)
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
    }

    /// How long a replica keeps tenants' configuration (policy, routing, accounts) and API keys in memory.
    ///
    /// Writes invalidate cached entries on every replica at once (through the database's change
    /// notifications); the lifetime is only a safety net for a notification that was missed.
    public struct Caching: PolicySection {
        /// Longest time an entry is served from memory, in milliseconds; 0 turns caching off.
        public var ttlMs: Int = 5_000
        /// Most entries each cache holds; the oldest is dropped first.
        public var maxEntries: Int = 10_000

        public init() {}

        public static let name = "cache"
        public static let fields: [PolicyField<Caching>] = [
            .key(
                "ttl_ms", \.ttlMs, in: ttlRange,
                "Longest time a cached entry is served from memory; 0 turns caching off."),
            .key("max_entries", \.maxEntries, in: entriesRange, "Most entries each cache holds."),
        ]

        /// The lifetimes accepted in `policy.json`, in milliseconds.
        public static let ttlRange = 0...60_000
        /// The sizes accepted in `policy.json`.
        public static let entriesRange = 1...1_000_000

        /// The settings of one cache.
        public var settings: CacheSettings {
            CacheSettings(ttl: TimeInterval(ttlMs) / 1000, maxEntries: maxEntries)
        }
    }

    /// What `GET /metrics` shows (the `metrics` section).
    public struct Metrics: PolicySection {
        /// Adds a `tenant` label to the payment counters. Off by default: the number of tenants is not
        /// bounded by the operator's configuration, so each tenant would make new series.
        public var tenantLabels: Bool = false

        public init() {}

        public static let name = "metrics"
        public static let fields: [PolicyField<Metrics>] = [
            .key("tenant_labels", \.tenantLabels, "Adds a tenant label to the payment counters.")
        ]
    }

    /// How plugin calls are bounded and plugin worker processes supervised (the `plugin_workers` section).
    public struct PluginWorkers: PolicySection {
        /// Added to `limits.provider_timeout_ms` to make every plugin call's deadline, in milliseconds.
        public var deadlineMarginMs: Int = 5_000
        /// How long a call past its deadline may still complete after the host asked the plugin to cancel.
        public var cancelGraceMs: Int = 1_000
        /// Worker deaths within ``crashWindowMs`` that quarantine the plugin file.
        public var crashLimit: Int = 3
        /// The window for ``crashLimit``, in milliseconds.
        public var crashWindowMs: Int = 300_000
        /// Delay before restarting a worker after its first death; doubles with each further death.
        public var restartBackoffMs: Int = 200
        /// Threads running the calls of one in-process plugin.
        public var inProcessThreads: Int = 4

        public init() {}

        public static let name = "plugin_workers"
        public static let fields: [PolicyField<PluginWorkers>] = [
            .key(
                "deadline_margin_ms", \.deadlineMarginMs, in: 0...600_000,
                "Added to limits.provider_timeout_ms to make every plugin call's deadline."),
            .key(
                "cancel_grace_ms", \.cancelGraceMs, in: 0...60_000,
                "How long a call past its deadline may still complete after it was cancelled."),
            .key(
                "crash_limit", \.crashLimit, in: 1...1_000,
                "Worker deaths within crash_window_ms that quarantine a plugin."),
            .key("crash_window_ms", \.crashWindowMs, in: 1...86_400_000, "The window crash_limit counts over."),
            .key(
                "restart_backoff_ms", \.restartBackoffMs, in: 0...60_000,
                "Delay before restarting a worker after its first death; doubles with each further death."),
            .key(
                "in_process_threads", \.inProcessThreads, in: 1...64,
                "Threads running the calls of one in-process plugin."),
        ]
    }
}
