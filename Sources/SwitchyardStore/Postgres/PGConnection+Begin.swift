import Foundation

extension PGConnection {
    /// Takes the transaction opening not sent yet (`BEGIN` and its setup), leaving none.
    func takePendingBegin() -> [String]? {
        defer { pendingBegin = nil }
        return pendingBegin
    }

    /// Runs `send`, which carries a transaction's opening and its first statements; when the connection turns
    /// out unavailable and may be reopened, reopens it and runs `send` once more.
    ///
    /// This is safe because the batch holds no `COMMIT`: whatever the server did with it was rolled back
    /// with the lost session or the failed statement, and the caller has seen none of its results. A batch
    /// with `COMMIT` comes here only with statements declared repeatable (see ``commit(after:repeatable:)``):
    /// if the lost session committed them, running them again changes nothing, and the caller may take the
    /// second answer as the first's.
    func reopeningOnce<T>(_ send: () async throws -> T) async throws -> T {
        do {
            return try await send()
        } catch let error as PGError where error.isUnavailable && mayReopenAtBegin {
            logger.info("reopening PostgreSQL connection lost before BEGIN", metadata: ["db.error": "\(error.code)"])
            close()
            try await connect()
            return try await send()
        }
    }
}
