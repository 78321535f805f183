import Foundation

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
    }

    /// A value produced on the leased connection (a wrapper, so that an optional `T` stays unambiguous).
    struct Ran<T: Sendable>: Sendable {
        var value: T
    }

    let pool: PGPool
    private let worker: PGWorker
    private let state = PGLock(State())

    init(pool: PGPool, worker: PGWorker) {
        self.pool = pool
        self.worker = worker
    }

    /// Runs `body` on the leased connection's own thread, suspending the caller meanwhile.
    ///
    /// A transaction the body leaves open is rolled back afterwards; session state is kept.
    ///
    /// - Throws: ``PGError`` with code ``PGError/Code/leaseEnded`` once the lease's scope is over, or
    ///   whatever `body` throws.
    @discardableResult
    public func run<T: Sendable>(_ body: @escaping @Sendable (PGConnection) throws -> T) async throws -> T {
        guard let ran = try await runIfActive(body) else { throw PGError.leaseEndedError }
        return ran.value
    }

    /// Runs `body` on the leased connection, or returns nil when the lease has ended.
    func runIfActive<T: Sendable>(_ body: @escaping @Sendable (PGConnection) throws -> T) async throws -> Ran<T>? {
        let admitted = state.withLock { state in
            guard state.active else { return false }
            state.running += 1
            return true
        }
        guard admitted else { return nil }
        defer { finishRun() }
        let session = state.withLock { $0.session }
        let (value, ranOn) = try await worker.run { connection in
            // Session state (an advisory lock) does not survive a reconnect: fail rather than go on without it.
            if let session, connection.sessionNumber != session {
                throw PGError(code: .connectionFailed, message: "the leased session was lost")
            }
            connection.mayReopenAtBegin = false
            defer { connection.mayReopenAtBegin = true }
            return (try body(connection), connection.sessionNumber)
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
        let worker = try await acquire()
        let lease = PGLease(pool: self, worker: worker)
        let result: Result<T, any Error>
        do {
            result = .success(try await PGLease.$current.withValue(lease) { try await body(lease) })
        } catch {
            result = .failure(error)
        }
        await lease.end()
        release(worker)
        return try result.get()
    }
}
