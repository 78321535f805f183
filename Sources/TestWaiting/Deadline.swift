/// A wait that did not end in time.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What was awaited.
    public let what: String
    /// How long it was awaited.
    public let timeout: Duration

    public var description: String { "\(what): not within \(timeout)" }
}

/// Bounds a wait: a test that awaits an event fails after its deadline instead of hanging the suite.
public enum Deadline {
    /// Runs `body` and returns its result; cancels it and throws ``WaitTimedOut`` once `timeout` has passed.
    public static func within<T: Sendable>(
        _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                // The deadline itself, the one sleep waiting needs: it bounds the wait, it does not stand for an event.
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw WaitTimedOut(what: what, timeout: timeout)
            }
            return value
        }
    }
}
