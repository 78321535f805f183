import CLibPQ
import Foundation
import Logging
import Metrics
import SwitchyardObservability

/// A fixed set of PostgreSQL connections, each owned by its own thread.
///
/// Callers borrow a connection for the duration of a closure that runs on that connection's thread;
/// callers beyond the pool size wait without blocking any thread, in arrival order, for at most the
/// configuration's `acquireTimeout` (then ``PGError/Code/poolTimeout`` is thrown). Connections open
/// lazily on first use, so an unreachable database surfaces as a ``PGError`` with code
/// ``PGError/Code/connectionFailed`` from the first call (``ping()`` checks it up front). A broken
/// connection is reset on its next use.
public final class PGPool: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<PGWorker, any Error>
    }

    private struct State {
        var idle: [PGWorker]
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var closed = false
    }

    private enum Acquisition {
        case ready(PGWorker)
        case queued
        case closed
        case cancelled
    }

    private let workers: [PGWorker]
    private let state: PGLock<State>
    private let acquireTimeout: Duration?
    /// Probes counting transactions (see ``watch(setting:value:)``).
    let watches = PGLock<[PGWatch]>([])
    let logger: Logger

    /// Creates a pool. No connection is opened yet.
    ///
    /// - Throws: ``PGError`` with code ``PGError/Code/invalidConfiguration`` when the pool size is below 1
    ///   or the connection string cannot be parsed.
    public init(_ configuration: PostgresConfiguration, logger: Logger) throws {
        guard configuration.poolSize >= 1 else {
            throw PGError(code: .invalidConfiguration, message: "the pool size must be at least 1")
        }
        try Self.validate(connectionString: configuration.connectionString)
        let workers = (0..<configuration.poolSize).map {
            PGWorker(index: $0, configuration: configuration, logger: logger)
        }
        self.workers = workers
        self.state = PGLock(State(idle: workers.reversed()))
        self.acquireTimeout = configuration.acquireTimeout
        self.logger = logger
    }

    deinit {
        for worker in workers { worker.requestStop() }
    }

    /// The number of connections.
    public var size: Int { workers.count }

    /// Borrows a connection and runs `body` with it on the connection's own thread.
    ///
    /// Inside the scope of ``withLease(_:)`` on this pool, the leased connection is used instead of
    /// borrowing another one. A transaction that `body` leaves open is rolled back. Waiting for a free
    /// connection can be cancelled (it then throws `CancellationError`) and ends with
    /// ``PGError/Code/poolTimeout`` after the acquire timeout; a running body is not interrupted.
    @discardableResult
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PGConnection) throws -> T
    ) async throws -> T {
        if let lease = PGLease.current, lease.pool === self, let result = try await lease.runIfActive(body) {
            return result.value
        }
        let waitStarted = ContinuousClock.now
        let worker = try await acquire()
        Metrics.Timer(label: MetricName.dbPoolWait).recordInterval(since: waitStarted)
        defer { release(worker) }
        return try await worker.run(body)
    }

    /// Opens (or checks) a connection with `SELECT 1`.
    public func ping() async throws {
        try await withConnection { connection in _ = try connection.query("SELECT 1") }
    }

    /// Fails waiting callers, then closes every connection once its current work is done.
    public func shutdown() async {
        let waiters = state.withLock { state in
            state.closed = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: PGError.poolClosedError) }
        for worker in workers { await worker.stop() }
        logger.debug("PostgreSQL pool shut down")
    }

    func acquire() async throws -> PGWorker {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PGWorker, any Error>) in
                let acquisition: Acquisition = state.withLock { state in
                    if state.closed { return .closed }
                    if let worker = state.idle.popLast() { return .ready(worker) }
                    if Task.isCancelled { return .cancelled }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .queued
                }
                recordUsage()
                switch acquisition {
                case .ready(let worker): continuation.resume(returning: worker)
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
        Task { [state, logger, size = workers.count] in
            try? await Task.sleep(for: timeout)
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            guard let waiter else { return }
            logger.warning("no database connection free in time", metadata: ["db.pool_size": "\(size)"])
            waiter.continuation.resume(throwing: PGError.poolTimeoutError(timeout))
        }
    }

    func release(_ worker: PGWorker) {
        let waiter = state.withLock { state -> Waiter? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.idle.append(worker)
            return nil
        }
        recordUsage()
        waiter?.continuation.resume(returning: worker)
    }

    /// Sets the pool gauges: connections in use and callers waiting (summed over the process's pools
    /// would need a label per pool; the last pool to change wins, which is the serving pool in practice).
    private func recordUsage() {
        let (inUse, waiting) = state.withLock { ($0.closed ? 0 : workers.count - $0.idle.count, $0.waiters.count) }
        Gauge(label: MetricName.dbPoolInUse).record(inUse)
        Gauge(label: MetricName.dbPoolWaiting).record(waiting)
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
