import Foundation

extension PGPool {
    /// Runs `body` while holding the session-level advisory lock `key`, waiting at most `wait` for it.
    ///
    /// The lock is tried with `pg_try_advisory_lock` and, while another session holds it, tried again
    /// after a short pause (5 ms, doubling up to 50 ms) until `wait` has passed; no connection is held
    /// between attempts. Once it is acquired, its connection stays leased for the whole of `body` (see
    /// ``withLease(_:)``: database work `body` does through this pool runs on that connection), and the
    /// lock is released with `pg_advisory_unlock` on that same connection however `body` ends: it
    /// returns, throws or is cancelled. When the release cannot be confirmed, the session is closed,
    /// which makes the server drop every lock it held.
    ///
    /// A connection lost while the lock is held loses the lock with it (the server releases the locks of
    /// a session that ends), so the lock guarantees mutual exclusion only while the connection lives.
    ///
    /// - Returns: what `body` returned, or nil when the lock could not be had within `wait` (`body` did
    ///   not run then).
    /// - Throws: `CancellationError` when cancelled while waiting, ``PGError`` when the database cannot
    ///   be reached, or whatever `body` throws.
    public func withAdvisoryLock<T: Sendable>(
        key: Int64, wait: Duration, _ body: @Sendable () async throws -> T
    ) async throws -> T? {
        let ran: PGLease.Ran<T>? = try await PGPolling.retry(for: wait) {
            try await withLease { lease in
                let locked = try await lease.run { connection in
                    try await connection.query("SELECT pg_try_advisory_lock($1::bigint) AS locked", [.int(key)]).first?
                        .bool("locked") ?? false
                }
                guard locked else { return nil }
                let outcome: Result<T, any Error>
                do {
                    outcome = .success(try await body())
                } catch {
                    outcome = .failure(error)
                }
                await unlock(key, on: lease)
                return PGLease.Ran(value: try outcome.get())
            }
        }
        return ran?.value
    }

    /// Releases `key` on the leased connection, or closes the session when that cannot be confirmed.
    private func unlock(_ key: Int64, on lease: PGLease) async {
        let released = try? await lease.run { connection in
            try await connection.query("SELECT pg_advisory_unlock($1::bigint) AS released", [.int(key)]).first?
                .bool("released")
        }
        guard released != true else { return }
        logger.warning("advisory lock release not confirmed; closing the session", metadata: ["db.lock": "\(key)"])
        _ = try? await lease.run { connection in connection.close() }
    }
}
