import Synchronization

/// One pooled connection held for the whole of an asynchronous scope (see ``PGPool/withLease(_:)``).
///
/// Every ``run(_:)`` goes to the same connection, so session state (settings, session-level advisory
/// locks) carries over from one call to the next. While the scope lasts, ``PGPool/withConnection(_:)``
/// and ``PGPool/transaction(role:settings:_:)`` on the same pool, called from the scope's task or its
/// child tasks, also use this connection instead of borrowing another one. A lease must not be kept
/// past its scope: calls made afterwards throw ``PGError/Code/leaseEnded``.
public final class PGLease: Sendable {
    /// The lease whose scope the current task runs in, if any.
    @TaskLocal static var current: PGLease?

    private struct State {
        var active = true
        var running = 0
        var drained: CheckedContinuation<Void, Never>?
        /// The session the lease's first call ran on; a later call finding another one fails.
        var session: Int?
        /// Whether a call is on the connection now; the others wait in `queue`, in arrival order.
        var busy = false
        var queue: [CheckedContinuation<Void, Never>] = []
    }

    /// A value produced on the leased connection (a wrapper, so that an optional `T` stays unambiguous).
    struct Ran<T: Sendable>: Sendable {
        var value: T
    }

    let pool: PGPool
    private let connection: PGConnection
    private let state = Mutex(State())

    init(pool: PGPool, connection: PGConnection) {
        self.pool = pool
        self.connection = connection
    }

    /// Calls of the lease running or waiting for their turn now: a probe for tests and diagnostics.
    public var callsRunning: Int { state.withLock { $0.running } }

    /// Runs `body` on the leased connection (on its loop), after any call of the lease still running.
    ///
    /// A transaction the body leaves open is rolled back afterwards; session state is kept.
    ///
    /// - Throws: ``PGError`` with code ``PGError/Code/leaseEnded`` once the lease's scope is over, or
    ///   whatever `body` throws.
    @discardableResult
    public func run<T: Sendable>(_ body: (PGConnection) async throws -> T) async throws -> T {
        guard let ran = try await runIfActive(body) else { throw PGError.leaseEndedError }
        return ran.value
    }

    /// Runs `body` on the leased connection, or returns nil when the lease has ended.
    func runIfActive<T: Sendable>(_ body: (PGConnection) async throws -> T) async throws -> Ran<T>? {
        let admitted = state.withLock { state in
            guard state.active else { return false }
            state.running += 1
            return true
        }
        guard admitted else { return nil }
        defer { finishRun() }
        await takeTurn()
        defer { passTurn() }
        let session = state.withLock { $0.session }
        let (value, ranOn) = try await connection.use { connection in
            // Session state (an advisory lock) does not survive a reconnect: fail rather than go on without it.
            if let session, connection.sessionNumber != session {
                throw PGError(code: .connectionFailed, message: "the leased session was lost")
            }
            connection.mayReopenAtBegin = false
            defer { connection.mayReopenAtBegin = true }
            return (try await body(connection), connection.sessionNumber)
        }
        state.withLock { state in
            if state.session == nil { state.session = ranOn }
        }
        return Ran(value: value)
    }

    /// Ends the lease and waits for calls still running on it, so the connection can go back to the pool.
    func end() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                state.active = false
                if state.running == 0 { return true }
                state.drained = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits until no other call of the lease is on the connection (calls from child tasks take turns).
    private func takeTurn() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.queue.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Hands the connection to the next waiting call, if any.
    private func passTurn() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.queue.isEmpty else {
                state.busy = false
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.resume()
    }

    private func finishRun() {
        let drained = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.running -= 1
            guard !state.active, state.running == 0 else { return nil }
            defer { state.drained = nil }
            return state.drained
        }
        drained?.resume()
    }
}

extension PGPool {
    /// Borrows one connection for the whole of `body`, which may suspend between its calls to it.
    ///
    /// The connection returns to the pool when `body` ends, however it ends. Waiting for a free
    /// connection can be cancelled (it then throws `CancellationError`). Meant for work that needs one
    /// session across awaits, such as holding a session-level advisory lock; keep such scopes short,
    /// since the connection serves no one else meanwhile.
    public func withLease<T: Sendable>(_ body: @Sendable (PGLease) async throws -> T) async throws -> T {
        let connection = try await acquire()
        let lease = PGLease(pool: self, connection: connection)
        let result: Result<T, any Error>
        do {
            result = .success(try await PGLease.$current.withValue(lease) { try await body(lease) })
        } catch {
            result = .failure(error)
        }
        await lease.end()
        release(connection)
        return try result.get()
    }
}
