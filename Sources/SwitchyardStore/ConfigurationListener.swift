import CLibPQ
import Foundation
import Logging
import SwitchyardCore

#if canImport(Glibc)
    import Glibc
#endif

/// Listens on a connection of its own for the database's notifications of configuration writes (any
/// replica's; see ``Schema/configurationNotifications``) and reports them to a ``ConfigurationChanges``.
///
/// Reports are *live* only while the connection listens: on every (re)connection all caches are cleared
/// and go live, on a lost connection they stop serving until it is back, so a notification missed meanwhile
/// can never leave a stale entry behind.
public final class ConfigurationListener: @unchecked Sendable {
    /// The notification channel; the payload is a tenant id.
    public static let channel = "switchyard_config"

    /// Touched only by the listener's thread.
    private let connection: PGConnection
    private let changes: ConfigurationChanges
    private let logger: Logger
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var stopping = false
    private var exited = false

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

    /// Starts listening on a thread of its own.
    public func start() {
        let thread = Thread { [self] in self.loop() }
        thread.name = "switchyard.pg.listener"
        thread.start()
    }

    /// Stops listening and waits until the connection is closed (within about a tenth of a second).
    public func stop() async {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
        while true {
            let done = condition.withLock { exited }
            if done { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private var isStopping: Bool { condition.withLock { stopping } }

    private func loop() {
        var listening = false
        var backoff = 0.1
        while !isStopping {
            do {
                if !listening {
                    try connection.ensureReady()
                    try connection.execute("LISTEN \(Self.channel)")
                    listening = true
                    backoff = 0.1
                    changes.setLive(true)
                    logger.debug("listening for configuration changes")
                }
                try drain(waitingAtMost: 100)
            } catch {
                if listening {
                    changes.setLive(false)
                    logger.warning(
                        "configuration change listener lost its connection; caches are off until it is back",
                        metadata: ["error": "\(error)"])
                }
                listening = false
                connection.close()
                pause(seconds: backoff)
                backoff = min(backoff * 2, 2)
            }
        }
        changes.setLive(false)
        connection.close()
        condition.withLock { exited = true }
    }

    /// Waits up to `milliseconds` for the socket to be readable, then reports every notification received.
    private func drain(waitingAtMost milliseconds: Int32) throws {
        guard let conn = connection.handle, PQstatus(conn) == CONNECTION_OK else {
            throw PGError(code: .connectionFailed, message: "the listener's connection is not open")
        }
        let socket = PQsocket(conn)
        guard socket >= 0 else { throw PGError(code: .connectionFailed, message: "the listener has no socket") }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0, errno != EINTR {
            throw PGError(code: .connectionFailed, message: "waiting for notifications failed (errno \(errno))")
        }
        if ready > 0, PQconsumeInput(conn) != 1 {
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

    private func pause(seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        if !stopping { _ = condition.wait(until: Date().addingTimeInterval(seconds)) }
    }
}
