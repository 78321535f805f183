extension PGConnection {
    /// Runs `body` with the connection ready, on the connection's loop: the task moves onto the loop once,
    /// and every statement of `body` is sent, awaited and read there.
    ///
    /// A transaction the body leaves open is rolled back afterwards; a session found broken or reached on a
    /// read-only standby is closed, to be reopened on next use rather than reused.
    func use<T: Sendable>(_ body: (PGConnection) async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(loop) {
            let outcome: Result<T, any Error>
            do {
                try await ensureReady()
                outcome = .success(try await body(self))
            } catch {
                outcome = .failure(error)
            }
            if case .failure(let error as PGError) = outcome, error.isUnavailable {
                close()
            } else {
                await cleanUpAfterUse()
            }
            return try outcome.get()
        }
    }
}
