/// Waits for a condition read through an interface that reports no changes — another process, a
/// database, a server over HTTP, an actor without a change stream: the condition is asked again at an
/// interval, until a deadline. State a test owns waits on ``Changes`` instead.
public enum Poll {
    /// Returns once `condition` holds; throws ``WaitTimedOut`` naming `what` after `timeout`.
    public static func until(
        _ what: String, within timeout: Duration = .seconds(15), every interval: Duration = .milliseconds(50),
        _ condition: () async throws -> Bool
    ) async throws {
        _ = try await value(what, within: timeout, every: interval) { try await condition() ? true : nil }
    }

    /// Whether `condition` came to hold within `timeout` (errors of `condition` are thrown): for a test
    /// that states its own expectation about the last state it read.
    @discardableResult
    public static func holds(
        _ what: String, within timeout: Duration = .seconds(15), every interval: Duration = .milliseconds(50),
        _ condition: () async throws -> Bool
    ) async throws -> Bool {
        do {
            try await until(what, within: timeout, every: interval, condition)
            return true
        } catch is WaitTimedOut {
            return false
        }
    }

    /// Returns the first value `probe` gives that is not nil; throws ``WaitTimedOut`` after `timeout`.
    public static func value<T>(
        _ what: String, within timeout: Duration = .seconds(15), every interval: Duration = .milliseconds(50),
        _ probe: () async throws -> T?
    ) async throws -> T {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try await probe() { return value }
            guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what, timeout: timeout) }
            // No event to await: the state is read through an interface that reports no changes (see the type's note).
            try await Task.sleep(for: interval)
        }
    }
}
