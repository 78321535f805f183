import Synchronization

/// Runs closures one at a time, in arrival order, across their awaits (a lock that a task may hold while
/// it suspends).
final class AsyncSerialGate: Sendable {
    private struct State {
        var busy = false
        var queue: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Runs `body` once every earlier caller's body has ended.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
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

    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.queue.isEmpty else {
                state.busy = false
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.resume()
    }
}
