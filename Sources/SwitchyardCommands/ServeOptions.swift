import ArgumentParser
import SwitchyardCore

/// The options of `serve` both executables take: the database, the listener, the plugins, the public URL,
/// migrations, logs, traces and metrics. The development executable adds the embedded default's own.
package struct ServeOptions: ParsableArguments {
    package init() {}

    @OptionGroup package var database: DatabaseOptions

    @Option(name: .customLong("port"), help: "Port to listen on (or SWITCHYARD_PORT; default: 8080).")
    package var portOption: Int?

    @Option(name: .customLong("host"), help: "Address to listen on (or SWITCHYARD_HOST; default: 127.0.0.1).")
    package var hostOption: String?

    @Option(
        name: .customLong("plugins-dir"),
        help: "Directory of plugin .so files (or SWITCHYARD_PLUGINS_DIR; default: <data-dir>/plugins).")
    package var pluginsDirOption: String?

    @Option(
        name: .customLong("public-url"),
        help: """
            Base URL providers send notifications to (or SWITCHYARD_PUBLIC_URL). Required with --database-url, \
            and not a loopback address; the embedded default uses http://<host>:<port>.
            """)
    package var publicURLOption: String?

    @Flag(
        name: .customLong("allow-loopback-public-url"),
        help: """
            With --database-url, accept a missing or loopback public URL (tests; or \
            SWITCHYARD_ALLOW_LOOPBACK_PUBLIC_URL=1).
            """)
    package var allowLoopbackPublicURLFlag = false

    @Flag(help: "Do not apply pending migrations at start (they are then an error); see `switchyard migrate`.")
    package var noMigrate = false

    @Flag(
        name: .customLong("allow-development-plugins"),
        help: """
            With --database-url, accept a development-mode plugin policy (plugins load with any digest; or \
            SWITCHYARD_ALLOW_DEVELOPMENT_PLUGINS=1).
            """)
    package var allowDevelopmentPluginsFlag = false
    @Option(
        name: .customLong("log-format"),
        help: """
            Log lines as json (one object per line) or text (or SWITCHYARD_LOG_FORMAT; default: json unless \
            stdout is a terminal).
            """)
    package var logFormatOption: LogFormat?

    @Option(help: "OTLP/HTTP endpoint traces are exported to (default: OTEL_EXPORTER_OTLP_ENDPOINT; unset: off).")
    package var otlpEndpoint: String?

    @Option(
        name: .customLong("metrics-port"),
        help: "Also serve GET /metrics, without authentication, on this port (or SWITCHYARD_METRICS_PORT).")
    package var metricsPortOption: Int?

    @Option(
        name: .customLong("replica-id"),
        help: """
            Stable name of this server among the replicas on one database (or SWITCHYARD_REPLICA_ID; default: \
            <hostname>:<port>); a restart under it releases the Idempotency-Keys its previous run held.
            """)
    package var replicaIdOption: String?

    package func validate() throws {
        try validateEnvironment()
    }
}
