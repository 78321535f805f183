import Synchronization

/// A stand-in for work that never ends on its own (a provider that never answers, a lock holder that
/// keeps its lock): ``untilCancelled()`` returns only when its task is cancelled, woken by the
/// cancellation itself rather than by a long sleep.
public enum Hold {
    /// Suspends until the current task is cancelled, then throws `CancellationError`.
    public static func untilCancelled() async throws {
        let latch = CancellationLatch()
        await withTaskCancellationHandler {
            await latch.wait()
        } onCancel: {
            latch.release()
        }
        throw CancellationError()
    }
}

/// One waiter released once; a release before the wait lets the wait pass at once.
private final class CancellationLatch: Sendable {
    private struct State {
        var released = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.released { return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.released = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
