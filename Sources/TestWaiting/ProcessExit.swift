import Foundation
import Synchronization

/// The exit of a child process as an event: ``status(within:)`` returns when it has exited, woken by
/// its termination handler, not by polling `isRunning`.
public final class ProcessExit: Sendable {
    private let changes = Changes()
    private let exited = Mutex<Int32?>(nil)

    /// Watches `process`; install before `process.run()` (it sets the termination handler).
    public init(_ process: Process) {
        process.terminationHandler = { [self] finished in
            exited.withLock { $0 = finished.terminationStatus }
            changes.notify()
        }
    }

    /// The exit status once the process has exited, or nil when it still runs after `timeout`.
    public func status(within timeout: Duration) async throws -> Int32? {
        do {
            try await changes.wait("process exit", within: timeout) { [self] in exited.withLock { $0 != nil } }
        } catch is WaitTimedOut {
            return nil
        }
        return exited.withLock { $0 }
    }
}
