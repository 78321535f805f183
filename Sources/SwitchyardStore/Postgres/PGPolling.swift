/// Retrying a lock attempt until a deadline.
enum PGPolling {
    /// Calls `attempt` until it returns a value or `wait` has passed, pausing 5 ms (doubling up to 50 ms)
    /// between calls; `attempt` runs at least once.
    ///
    /// - Returns: the first value `attempt` returned, or nil after `wait`.
    /// - Throws: `CancellationError` when cancelled, or what `attempt` throws.
    static func retry<T: Sendable>(for wait: Duration, _ attempt: () async throws -> T?) async throws -> T? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: wait)
        var pause = Duration.milliseconds(5)
        while true {
            try Task.checkCancellation()
            if let value = try await attempt() { return value }
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero { return nil }
            try await Task.sleep(for: min(pause, remaining))
            pause = min(pause * 2, .milliseconds(50))
        }
    }
}
