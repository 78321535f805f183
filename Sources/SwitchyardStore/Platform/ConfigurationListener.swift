import CLibPQ
import Foundation
import Logging
import SwitchyardCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Listens on a connection of its own for the database's notifications of configuration writes (any
/// replica's; see ``Schema/configurationNotifications``) and reports them to a ``ConfigurationChanges``.
///
/// Reports are *live* only while the connection listens: on every (re)connection all caches are cleared
/// and go live, on a lost connection they stop serving until it is back, so a notification missed meanwhile
/// can never leave a stale entry behind.
public final class ConfigurationListener: Sendable {
    /// The notification channel; the payload is a tenant id.
    public static let channel = "switchyard_config"

    /// Used only by the listening task.
    private let connection: PGConnection
    private let changes: ConfigurationChanges
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Creates a listener; nothing happens until ``start()``.
    public init(configuration: PostgresConfiguration, changes: ConfigurationChanges, logger: Logger) {
        connection = Self.connection(configuration, logger: logger)
        self.changes = changes
        self.logger = logger
    }

    /// The listener's connection (not open yet): made like a pooled one, with the configuration's keepalives,
    /// so a primary that vanishes without closing it is noticed within the same bound; without statement
    /// timeouts, since it only waits.
    static func connection(_ configuration: PostgresConfiguration, logger: Logger) -> PGConnection {
        var connectionLogger = logger
        connectionLogger[metadataKey: "db.connection"] = "listener"
        return PGConnection(
            connectionString: configuration.connectionString,
            connectTimeoutSeconds: configuration.connectTimeoutSeconds, keepalive: configuration.keepalive,
            logger: connectionLogger)
    }

    /// Starts listening, in a task on the connection's loop (no thread of its own).
    public func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { [self] in
                await withTaskExecutorPreference(connection.loop) { await self.listen() }
            }
        }
    }

    /// Stops listening and waits until the connection is closed: at once while it waits for notifications,
    /// after the step under way while it connects.
    public func stop() async {
        guard let running = task.withLock({ $0 }) else { return }
        running.cancel()
        await running.value
    }

    private func listen() async {
        var listening = false
        var backoff = 0.1
        while !Task.isCancelled {
            do {
                if !listening {
                    try await connection.ensureReady()
                    try await connection.execute("LISTEN \(Self.channel)")
                    listening = true
                    backoff = 0.1
                    changes.setLive(true)
                    logger.debug("listening for configuration changes")
                }
                try await drain(waitingAtMost: Self.longestWait)
            } catch {
                if listening {
                    changes.setLive(false)
                    logger.warning(
                        "configuration change listener lost its connection; caches are off until it is back",
                        metadata: ["error": "\(error)"])
                }
                listening = false
                connection.close()
                try? await Task.sleep(for: .seconds(backoff))
                backoff = min(backoff * 2, 2)
            }
        }
        changes.setLive(false)
        connection.close()
    }

    /// The longest one wait for notifications lasts. A stop cancels the wait and a lost connection ends it
    /// (keepalives bound a silent one), so it only bounds what nothing else would.
    static let longestWait = Duration.seconds(60)

    /// Waits up to `wait` for the socket to be readable (less when the task is cancelled), then reports every
    /// notification received.
    private func drain(waitingAtMost wait: Duration) async throws {
        guard let conn = connection.handle, PQstatus(conn) == CONNECTION_OK else {
            throw PGError(code: .connectionFailed, message: "the listener's connection is not open")
        }
        let socket = PQsocket(conn)
        guard socket >= 0 else { throw PGError(code: .connectionFailed, message: "the listener has no socket") }
        let wake = await connection.loop.waitUnlessCancelled(for: socket, .readable, until: .now.advanced(by: wait))
        guard let wake else { return }
        if case .ready = wake, PQconsumeInput(conn) != 1 {
            throw PGError(code: .connectionFailed, message: "the listener's connection was lost")
        }
        while let notify = PQnotifies(conn) {
            let payload = notify.pointee.extra.map { String(cString: $0) } ?? ""
            cpq_free_notify(notify)
            if let tenant = UUID(uuidString: payload) {
                changes.changed(tenant: tenant)
            } else {
                changes.changedAll()
            }
        }
    }
}
