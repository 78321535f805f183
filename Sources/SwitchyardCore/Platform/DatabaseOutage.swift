import Logging
import Synchronization

/// What a background worker (the janitor, the webhook dispatcher) knows of a database outage, so that it
/// logs the outage once at warning when it starts and once when it ends, not once per attempt, and waits
/// longer between attempts while it lasts.
///
/// Only failures that say the database cannot be reached (``StorageFailure/isUnavailable``) count; the
/// worker keeps logging other failures as before.
public final class DatabaseOutage: Sendable {
    private let worker: String
    private let logger: Logger
    /// Consecutive unavailable failures; 0 outside an outage.
    private let failures = Mutex(0)

    /// The longest pause between attempts during an outage.
    public static let maximumPauseMs = 30_000

    /// Creates the tracker of one worker (`worker` names it in the logs).
    public init(worker: String, logger: Logger) {
        self.worker = worker
        self.logger = logger
    }

    /// Whether an outage is under way.
    public var isOngoing: Bool { failures.withLock { $0 > 0 } }

    /// Records a failure; returns true when it says the database is unreachable (the caller then skips its
    /// own log), logging a warning only for the first of an outage.
    @discardableResult
    public func failed(_ error: any Error) -> Bool {
        guard error.isStorageUnavailable else { return false }
        let first = failures.withLock { failures in
            failures += 1
            return failures == 1
        }
        if first {
            logger.warning(
                "database unavailable; backing off",
                metadata: ["worker": "\(worker)", "error.message": "\(String(describing: error))"])
        }
        return true
    }

    /// Records a success; logs the end of an outage under way.
    public func succeeded() {
        let ended = failures.withLock { failures in
            defer { failures = 0 }
            return failures
        }
        if ended > 0 {
            logger.warning("database reachable again", metadata: ["worker": "\(worker)", "attempts": "\(ended)"])
        }
    }

    /// The pause before the next attempt: `normalMs` outside an outage; during one, at least `normalMs`
    /// and doubling per failed attempt from 1 s up to ``maximumPauseMs``.
    public func pauseMs(normal normalMs: Int) -> Int {
        let failures = self.failures.withLock { $0 }
        guard failures > 0 else { return normalMs }
        let backoff = 1000 << min(failures - 1, 5)
        return max(normalMs, min(backoff, Self.maximumPauseMs))
    }
}
