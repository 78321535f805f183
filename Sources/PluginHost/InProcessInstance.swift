import Foundation
import ProviderKit

/// A plugin instance inside the server. Its calls run on the plugin's own threads; a call still queued
/// at its deadline is answered `deadline_before_send` and never started.
final class InProcessInstance: PluginInstance, @unchecked Sendable {
    private let handle: PluginInstanceHandle
    private let threads: PluginThreads
    private let deadline: Duration
    private let grace: Duration

    init(handle: PluginInstanceHandle, pluginID: String, settings: PluginRunSettings) {
        self.handle = handle
        threads = PluginThreads(count: settings.inProcessThreads, name: pluginID)
        deadline = settings.callDeadline
        grace = settings.cancelGrace
    }

    deinit {
        threads.stop()
    }

    var quarantine: PluginQuarantine? { nil }

    func invoke(method: String, payload: Data) async -> Result<Data, PluginCallError> {
        let handle = self.handle
        let threads = self.threads
        let callID = handle.makeCallID()
        let state = QueuedCall()
        return await PluginCallSlot.run(
            deadline: deadline, grace: grace, ledger: handle.sends,
            start: { slot in
                threads.submit {
                    guard state.begin() else { return }
                    handle.start(callID, method: method, payload: payload) { slot.finish(.success($0)) }
                    if state.invoked() {
                        handle.cancel(callID)
                    }
                }
            },
            cancel: { slot, reason in
                switch state.cancel() {
                case .skipped:
                    let code: PluginResultCode = reason == .deadline ? .deadlineBeforeSend : .cancelled
                    slot.finish(.failure(PluginCallError(code, message: "the call never started")))
                case .afterInvoke:
                    break
                case .now:
                    threads.submit { handle.cancel(callID) }
                }
            })
    }
}

/// Where a call is between its queue and the plugin, so a cancellation skips it, waits for its
/// `invoke` to return, or goes to the plugin at once.
private final class QueuedCall: @unchecked Sendable {
    enum Cancellation {
        /// The call had not started: it never will.
        case skipped
        /// `invoke` is running: the thread that called it cancels once it returns.
        case afterInvoke
        /// `invoke` returned: cancel now.
        case now
    }

    private enum Stage {
        case queued, invoking, invoked, skipped
    }

    private let lock = NSLock()
    private var stage = Stage.queued
    private var cancelPending = false

    /// Marks the call started; false if it was skipped.
    func begin() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard stage == .queued else { return false }
        stage = .invoking
        return true
    }

    /// Marks `invoke` returned; true if a cancellation arrived meanwhile.
    func invoked() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        stage = .invoked
        return cancelPending
    }

    /// Records a cancellation and says what to do about it.
    func cancel() -> Cancellation {
        lock.lock()
        defer { lock.unlock() }
        switch stage {
        case .queued, .skipped:
            stage = .skipped
            return .skipped
        case .invoking:
            cancelPending = true
            return .afterInvoke
        case .invoked:
            return .now
        }
    }
}
