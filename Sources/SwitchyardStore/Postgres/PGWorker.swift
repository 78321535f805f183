import Foundation
import Logging

/// One connection and the dedicated thread that owns it.
///
/// Jobs run one at a time, in order, on the worker's own thread; libpq's blocking calls therefore never
/// occupy a Swift concurrency thread. The connection is opened on first use and reset when broken.
final class PGWorker: @unchecked Sendable {
    typealias Job = @Sendable (PGConnection) -> Void

    let index: Int
    /// Touched only by the worker's thread.
    private let connection: PGConnection
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [Job] = []
    private var stopping = false
    private var exited = false
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []

    init(index: Int, configuration: PostgresConfiguration, logger: Logger) {
        self.index = index
        var connectionLogger = logger
        connectionLogger[metadataKey: "db.connection"] = "\(index)"
        self.connection = PGConnection(
            connectionString: configuration.connectionString,
            connectTimeoutSeconds: configuration.connectTimeoutSeconds,
            sessionTimeouts: configuration.sessionTimeouts, keepalive: configuration.keepalive,
            logger: connectionLogger)
        let thread = Thread { [self] in self.loop() }
        thread.name = "switchyard.pg.\(index)"
        thread.start()
    }

    /// Runs `body` on the worker's thread with a ready connection, suspending the caller meanwhile.
    ///
    /// A transaction the body leaves open is rolled back afterwards.
    func run<T: Sendable>(_ body: @escaping @Sendable (PGConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let accepted = enqueue { connection in
                let outcome = Result {
                    try connection.ensureReady()
                    return try body(connection)
                }
                if case .failure(let error as PGError) = outcome, error.isUnavailable {
                    // Broken, or reached a read-only standby: reopen on next use rather than reuse.
                    connection.close()
                } else {
                    connection.cleanUpAfterUse()
                }
                continuation.resume(with: outcome)
            }
            if !accepted { continuation.resume(throwing: PGError.poolClosedError) }
        }
    }

    /// Asks the thread to finish its queued jobs, close the connection and exit; does not wait.
    func requestStop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// Stops the worker and waits until its thread has closed the connection and exited.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            stopping = true
            if exited {
                condition.unlock()
                continuation.resume()
                return
            }
            exitWaiters.append(continuation)
            condition.signal()
            condition.unlock()
        }
    }

    private func enqueue(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    private func nextJob() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !stopping { condition.wait() }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }

    private func loop() {
        while let job = nextJob() { job(connection) }
        connection.close()
        condition.lock()
        exited = true
        let waiters = exitWaiters
        exitWaiters = []
        condition.unlock()
        for waiter in waiters { waiter.resume() }
    }
}
