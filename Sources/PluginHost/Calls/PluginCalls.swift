import CSwitchyardPlugin
import Foundation
import ProviderKit
import Synchronization

/// The one registry of plugin calls in flight, in process and in workers, and their one id space.
///
/// A call's id is what the plugin's `invoke` and `cancel` receive, the completion context of an
/// in-process call, and the id its worker's frames carry. Each call is a ``PluginCallMachine``; the
/// registry feeds it the events (the plugin's completion, the calling task's cancellation, the ticks of
/// the call's ``PluginTimer``, the worker's end) and carries out its actions outside the lock.
///
/// A completion is accepted only from the call's owner (its worker connection; in-process calls are
/// owned by ``inProcessOwner``), so one worker cannot answer another's calls, and only once: a second
/// completion, or one after the host answered, finds nothing.
final class PluginCalls: Sendable {
    /// The process's registry.
    static let shared = PluginCalls()

    /// The owner of calls run in the server's process.
    static let inProcessOwner: UInt64 = 0

    private struct Entry {
        var machine: PluginCallMachine
        let owner: UInt64
        let ledger: SendLedger
        let timer: any PluginTimer
        let cancel: @Sendable (UInt64, PluginCancelReason) -> Void
        var waiting: CheckedContinuation<Result<Data, PluginCallError>, Never>?
        var early: Result<Data, PluginCallError>?
        /// The wake-up scheduled and not yet run (`armed` is its number; `wake` is set once scheduled).
        var armed: UInt64?
        var wake: PluginWake?
    }

    private struct State {
        var nextID: UInt64 = 1
        var nextOwner: UInt64 = 1
        var nextWake: UInt64 = 1
        var calls: [UInt64: Entry] = [:]
    }

    private let state = Mutex(State())

    /// A new owner for the calls of one worker connection.
    func makeOwner() -> UInt64 {
        state.withLock { state in
            defer { state.nextOwner &+= 1 }
            return state.nextOwner
        }
    }

    /// Whether call `id` waits for its answer (answered calls are forgotten).
    func isInFlight(_ id: UInt64) -> Bool { state.withLock { $0.calls[id] != nil } }

    /// Runs one call and returns its one answer. `start` hands the call to the plugin: it calls
    /// ``begin(_:)`` first (and stops when that is false), then ``invokeReturned(_:)``. `cancel` asks the
    /// plugin to stop it, after `invoke` returned, when the calling task is cancelled or the deadline
    /// passes. Deadline and grace are read from `timer`.
    func call(
        deadline: Duration, grace: Duration, timer: any PluginTimer, ledger: SendLedger, owner: UInt64,
        start: @Sendable (UInt64) -> Void, cancel: @escaping @Sendable (UInt64, PluginCancelReason) -> Void
    ) async -> Result<Data, PluginCallError> {
        let machine = PluginCallMachine(now: timer.now, deadline: deadline, grace: grace, sends: ledger.count)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID = state.nextID == UInt64.max ? 1 : state.nextID + 1
            state.calls[id] = Entry(machine: machine, owner: owner, ledger: ledger, timer: timer, cancel: cancel)
            return id
        }
        schedule(id)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiting: CheckedContinuation<Result<Data, PluginCallError>, Never>) in
                let early: Result<Data, PluginCallError>? = state.withLock { state in
                    guard var entry = state.calls[id] else { return nil }
                    if let early = entry.early {
                        state.calls[id] = nil
                        return early
                    }
                    entry.waiting = waiting
                    state.calls[id] = entry
                    return nil
                }
                if let early {
                    waiting.resume(returning: early)
                } else {
                    start(id)
                }
            }
        } onCancel: {
            self.feed(id) { machine, _ in machine.cancel(.task) }
        }
    }

    /// The call `id` is about to be handed to its plugin; false when it must not be.
    func begin(_ id: UInt64) -> Bool {
        state.withLock { state in
            guard var entry = state.calls[id] else { return false }
            let begun = entry.machine.begin()
            state.calls[id] = entry
            return begun
        }
    }

    /// The plugin's `invoke` of call `id` returned, or its frame was written.
    func invokeReturned(_ id: UInt64) {
        feed(id) { machine, _ in machine.invokeReturned() }
    }

    /// The plugin completed call `id` with `reply`; false when no call `id` of `owner` waits for it.
    @discardableResult
    func complete(_ id: UInt64, _ reply: Data, owner: UInt64) -> Bool {
        feed(id, owner: owner) { machine, sends in machine.completed(reply, sends: sends) } != .ignoreLate
    }

    /// The host answers call `id` with `error` itself.
    func fail(_ id: UInt64, _ error: PluginCallError) {
        feed(id) { machine, _ in machine.fail(error) }
    }

    /// Every call of `owner` is answered: its worker ended.
    func lose(owner: UInt64, sentCode: PluginResultCode, unsentCode: PluginResultCode, _ message: String) {
        let ids = state.withLock { state in state.calls.filter { $0.value.owner == owner }.map(\.key) }
        for id in ids {
            feed(id, owner: owner) { machine, sends in
                machine.lost(sentCode: sentCode, unsentCode: unsentCode, message, sends: sends)
            }
        }
    }

    /// Feeds one event to call `id` (of `owner`, when given) and carries out the action; an unknown call is
    /// `ignoreLate`.
    @discardableResult
    private func feed(
        _ id: UInt64, owner: UInt64? = nil,
        _ event: (inout PluginCallMachine, UInt64) -> PluginCallMachine.Action
    ) -> PluginCallMachine.Action {
        let (action, entry) = state.withLock { state -> (PluginCallMachine.Action, Entry?) in
            guard var entry = state.calls[id], owner == nil || entry.owner == owner else { return (.ignoreLate, nil) }
            let action = event(&entry.machine, entry.ledger.count)
            if case .answer(let result) = action, entry.waiting == nil {
                // Answered before the caller waits: ``call`` finds the answer when it does.
                entry.early = result
                state.calls[id] = entry
            } else if case .answer = action {
                state.calls[id] = nil
            } else {
                state.calls[id] = entry
            }
            return (action, entry)
        }
        guard let entry else { return action }
        switch action {
        case .answer(let result):
            entry.wake?.cancel()
            entry.waiting?.resume(returning: result)
        case .cancelPlugin(let reason):
            entry.cancel(id, reason)
            schedule(id)
        case .none, .ignoreLate:
            schedule(id)
        }
        return action
    }

    /// Arranges the next tick of call `id`, unless one is scheduled or the call needs none.
    private func schedule(_ id: UInt64) {
        let next = state.withLock { state -> (Duration, any PluginTimer, UInt64)? in
            guard var entry = state.calls[id], entry.armed == nil, let at = entry.machine.wakeAt else { return nil }
            let number = state.nextWake
            state.nextWake &+= 1
            entry.armed = number
            state.calls[id] = entry
            return (at, entry.timer, number)
        }
        guard let (at, timer, number) = next else { return }
        let wake = timer.wake(at: at) { [self] in
            let current = state.withLock { state in
                guard state.calls[id]?.armed == number else { return false }
                state.calls[id]?.armed = nil
                state.calls[id]?.wake = nil
                return true
            }
            if current { feed(id) { machine, sends in machine.tick(now: timer.now, sends: sends) } }
        }
        let unused = state.withLock { state -> PluginWake? in
            guard state.calls[id]?.armed == number else { return wake }
            state.calls[id]?.wake = wake
            return nil
        }
        // The call was answered, or the wake-up already ran, before it was stored.
        unused?.cancel()
    }

    /// The C completion passed with every in-process `invoke`; its context is the call's id.
    static let completion: sy_completion_fn = { context, json, length in
        let data = json.map { Data(bytes: $0, count: length) } ?? Data()
        PluginCalls.shared.complete(UInt64(UInt(bitPattern: context)), data, owner: inProcessOwner)
    }
}
