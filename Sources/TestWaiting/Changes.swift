import Synchronization

/// Wakes whoever waits for a condition on some state when that state changes: the owner of the state
/// calls ``notify()`` after each change, a test awaits ``wait(_:within:until:)``. No polling: a waiter
/// checks its condition once per change.
public final class Changes: Sendable {
    private struct State {
        var version = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Records a change and wakes every waiter, which then checks its condition again.
    public func notify() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.version &+= 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once `condition` holds, checked now and after every change; throws
    /// ``WaitTimedOut`` naming `what` when it still does not hold after `timeout`.
    public func wait(
        _ what: String, within timeout: Duration = .seconds(15), until condition: @escaping @Sendable () -> Bool
    ) async throws {
        try await Deadline.within(timeout, what) {
            while true {
                let seen = self.state.withLock { $0.version }
                if condition() { return }
                try Task.checkCancellation()
                await self.change(after: seen)
            }
        }
    }

    /// Suspends until a change later than `version` (at once when one happened already), or until the
    /// task is cancelled.
    private func change(after version: Int) async {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.version != version || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
