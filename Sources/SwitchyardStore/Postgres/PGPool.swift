import CLibPQ
import Foundation
import Logging
import Metrics
import SwitchyardObservability
import Synchronization

/// A fixed set of PostgreSQL connections, driven without blocking by the process's ``PGEventLoopGroup``.
///
/// Callers borrow a connection for the duration of a closure that runs on that connection's loop;
/// callers beyond the pool size wait without blocking any thread, in arrival order, for at most the
/// configuration's `acquireTimeout` (then ``PGError/Code/poolTimeout`` is thrown). Connections open
/// lazily on first use, so an unreachable database surfaces as a ``PGError`` with code
/// ``PGError/Code/connectionFailed`` from the first call (``ping()`` checks it up front). A broken
/// connection is reset on its next use.
public final class PGPool: Sendable {
    private struct Waiter: Sendable {
        var id: UInt64
        var continuation: CheckedContinuation<PGConnection, any Error>
    }

    private struct State {
        var idle: [PGConnection]
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var closed = false
        /// Callers of ``shutdown()`` waiting for the connections still in use.
        var drained: [CheckedContinuation<Void, Never>] = []
        /// Connections closed since shutdown began (the idle ones at once, the others when given back).
        var closedCount = 0
        /// Connections handed to callers since the pool was made.
        var handedOut: UInt64 = 0

        /// An idle connection, preferring one driven by the caller's own loop (its transaction then runs
        /// where the caller already is, with no hop to another thread and back); nil when none is idle.
        mutating func takeIdle() -> PGConnection? {
            if let index = idle.lastIndex(where: { $0.loop.isCurrent }) { return idle.remove(at: index) }
            return idle.popLast()
        }
    }

    /// What the pool is doing now: a probe for tests and diagnostics.
    public struct Usage: Sendable, Equatable {
        /// Connections lent to callers now.
        public var inUse: Int
        /// Callers waiting for a connection now.
        public var waiting: Int
        /// Connections handed to callers since the pool was made (a caller served twice counts twice).
        public var handedOut: UInt64
    }

    /// The pool's usage at this moment.
    public var usage: Usage {
        state.withLock { state in
            Usage(
                inUse: state.closed ? 0 : connections.count - state.idle.count, waiting: state.waiters.count,
                handedOut: state.handedOut)
        }
    }

    private enum Acquisition: Sendable {
        case ready(PGConnection)
        case queued
        case closed
        case cancelled
    }

    private let connections: [PGConnection]
    private let state: Mutex<State>
    private let acquireTimeout: Duration?
    /// Probes counting transactions (see ``watch(setting:value:)``).
    let watches = Mutex<[PGWatch]>([])
    let logger: Logger
    /// The pool gauges, made once: `Gauge(label:)` looks its metric up in the registry each time.
    private let inUseGauge: Gauge
    private let waitingGauge: Gauge

    /// Creates a pool. No connection is opened yet.
    ///
    /// - Throws: ``PGError`` with code ``PGError/Code/invalidConfiguration`` when the pool size is below 1
    ///   or the connection string cannot be parsed.
    public init(_ configuration: PostgresConfiguration, logger: Logger) throws {
        guard configuration.poolSize >= 1 else {
            throw PGError(code: .invalidConfiguration, message: "the pool size must be at least 1")
        }
        try Self.validate(connectionString: configuration.connectionString)
        // Spread evenly over the loops, whatever other pools took before: every loop a request may run on
        // drives some of this pool's connections.
        let loops = PGEventLoopGroup.shared.loops
        let connections = (0..<configuration.poolSize).map { index in
            var connectionLogger = logger
            connectionLogger[metadataKey: "db.connection"] = "\(index)"
            return PGConnection(
                connectionString: configuration.connectionString,
                connectTimeoutSeconds: configuration.connectTimeoutSeconds,
                sessionTimeouts: configuration.sessionTimeouts, keepalive: configuration.keepalive,
                logger: connectionLogger, loop: loops[index % loops.count])
        }
        self.connections = connections
        self.state = Mutex(State(idle: connections.reversed()))
        self.acquireTimeout = configuration.acquireTimeout
        self.logger = logger
        // The registry the server exposes, installed before the handles bind to the metrics system.
        SwitchyardMetrics.bootstrap()
        inUseGauge = Gauge(label: MetricName.dbPoolInUse)
        waitingGauge = Gauge(label: MetricName.dbPoolWaiting)
    }

    /// The number of connections.
    public var size: Int { connections.count }

    /// An executor to run a request's work on: one of the loops that drive the pool's connections, in
    /// turn. A task that prefers it runs its transactions on connections of that loop when one is idle,
    /// without moving to another thread and back for each.
    public func requestExecutor() -> any TaskExecutor {
        PGEventLoopGroup.shared.nextLoop()
    }

    /// Borrows a connection and runs `body` with it on the connection's loop.
    ///
    /// Inside the scope of ``withLease(_:)`` on this pool, the leased connection is used instead of
    /// borrowing another one. A transaction that `body` leaves open is rolled back. Waiting for a free
    /// connection can be cancelled (it then throws `CancellationError`) and ends with
    /// ``PGError/Code/poolTimeout`` after the acquire timeout; a running body is not interrupted.
    @discardableResult
    public func withConnection<T: Sendable>(
        _ body: (PGConnection) async throws -> T
    ) async throws -> T {
        if let lease = PGLease.current, lease.pool === self, let result = try await lease.runIfActive(body) {
            return result.value
        }
        let waitStarted = ContinuousClock.now
        let connection = try await acquire()
        Metrics.Timer(label: MetricName.dbPoolWait).recordInterval(since: waitStarted)
        defer { release(connection) }
        return try await connection.use(body)
    }

    /// Opens (or checks) a connection with `SELECT 1`.
    public func ping() async throws {
        try await withConnection { connection in _ = try await connection.query("SELECT 1") }
    }

    /// Fails waiting callers, closes the idle connections, and waits for those in use to come back, which
    /// are closed then.
    public func shutdown() async {
        let (waiters, idle) = state.withLock { state in
            state.closed = true
            state.closedCount += state.idle.count
            defer {
                state.waiters = []
                state.idle = []
            }
            return (state.waiters, state.idle)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: PGError.poolClosedError) }
        for connection in idle { connection.close() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                guard state.closedCount < connections.count else { return true }
                state.drained.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        logger.debug("PostgreSQL pool shut down")
    }

    func acquire() async throws -> PGConnection {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PGConnection, any Error>) in
                let acquisition: Acquisition = state.withLock { state in
                    if state.closed { return .closed }
                    if let connection = state.takeIdle() {
                        state.handedOut &+= 1
                        return .ready(connection)
                    }
                    if Task.isCancelled { return .cancelled }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .queued
                }
                recordUsage()
                switch acquisition {
                case .ready(let connection): continuation.resume(returning: connection)
                case .closed: continuation.resume(throwing: PGError.poolClosedError)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .queued: expire(id, after: acquireTimeout)
                }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Fails waiter `id` with ``PGError/Code/poolTimeout`` once `timeout` has passed, unless it was
    /// served, cancelled or released by shutdown before.
    private func expire(_ id: UInt64, after timeout: Duration?) {
        guard let timeout else { return }
        // Weak: like the state alone, the sleeping task does not keep the pool alive (a waiter's caller does).
        Task { [weak self, size = connections.count] in
            try? await Task.sleep(for: timeout)
            guard let self else { return }
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            guard let waiter else { return }
            logger.warning("no database connection free in time", metadata: ["db.pool_size": "\(size)"])
            waiter.continuation.resume(throwing: PGError.poolTimeoutError(timeout))
        }
    }

    func release(_ connection: PGConnection) {
        enum Next: Sendable {
            case serve(Waiter)
            case idle
            case close([CheckedContinuation<Void, Never>])
        }
        let next = state.withLock { state -> Next in
            if state.closed {
                state.closedCount += 1
                guard state.closedCount >= connections.count else { return .close([]) }
                defer { state.drained = [] }
                return .close(state.drained)
            }
            if !state.waiters.isEmpty {
                state.handedOut &+= 1
                return .serve(state.waiters.removeFirst())
            }
            state.idle.append(connection)
            return .idle
        }
        recordUsage()
        switch next {
        case .serve(let waiter): waiter.continuation.resume(returning: connection)
        case .idle: break
        case .close(let drained):
            // Nobody else holds the connection: closing it here is safe from any thread.
            connection.close()
            for continuation in drained { continuation.resume() }
        }
    }

    /// Sets the pool gauges: connections in use and callers waiting (summed over the process's pools
    /// would need a label per pool; the last pool to change wins, which is the serving pool in practice).
    private func recordUsage() {
        let now = usage
        inUseGauge.record(now.inUse)
        waitingGauge.record(now.waiting)
    }

    private static func validate(connectionString: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &errorMessage) else {
            if let errorMessage { PQfreemem(errorMessage) }
            // libpq's message may quote part of the string, which can hold a password: keep it generic.
            throw PGError(code: .invalidConfiguration, message: "the PostgreSQL connection string is malformed")
        }
        PQconninfoFree(options)
    }
}
