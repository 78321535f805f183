import Foundation
import ProviderKit

/// Why the host asks a plugin to stop a call.
enum PluginCancelReason: Sendable, Equatable {
    /// The calling task was cancelled.
    case task
    /// The call reached its deadline.
    case deadline
}

/// One plugin call as the host sees it, as a value: where the call is between its queue and the
/// plugin, whether a cancellation or the deadline came, and the one answer its caller gets. Events in,
/// actions out; the times are readings of the ``PluginTimer`` that ticks it, so tests drive the deadline
/// and the cancel grace without waiting.
///
/// Every call is answered exactly once: by the plugin's completion, or by the host at the deadline plus
/// the grace (`deadline_before_send` when the plugin asked for no outbound send since the call began,
/// `deadline_exceeded` otherwise), when the worker is lost, or when it is cancelled before it started.
struct PluginCallMachine: Sendable {
    /// Where the call is.
    enum Stage: Sendable, Equatable {
        /// Not handed to the plugin yet (an in-process call waiting for a plugin thread).
        case queued
        /// The plugin's `invoke` is running: a cancellation waits until it returns.
        case invoking
        /// Handed over: the plugin answers through its completion.
        case invoked
        /// The caller has its answer; what the plugin still sends is ignored.
        case answered
    }

    /// What the driver does after an event.
    enum Action: Sendable, Equatable {
        /// Nothing.
        case none
        /// Ask the plugin to stop the call.
        case cancelPlugin(PluginCancelReason)
        /// Give the caller this answer; the call is `answered` from now on.
        case answer(Result<Data, PluginCallError>)
        /// A completion after the caller was answered (the ABI's exactly-once rule broken); ignored.
        case ignoreLate
    }

    private(set) var stage = Stage.queued
    /// Whether the deadline passed (the plugin was, or will be once `invoke` returns, asked to cancel).
    private(set) var deadlinePassed = false
    private var cancelAfterInvoke: PluginCancelReason?
    private let deadline: Duration
    private let deadlineAt: Duration
    private let giveUpAt: Duration
    private let sendsAtStart: UInt64

    /// A call that begins at `now` with the plugin's sends counted at `sends`.
    init(now: Duration, deadline: Duration, grace: Duration, sends: UInt64) {
        self.deadline = deadline
        deadlineAt = now + deadline
        giveUpAt = now + deadline + grace
        sendsAtStart = sends
    }

    /// When the driver must tick the machine next; `nil` once answered.
    var wakeAt: Duration? {
        guard stage != .answered else { return nil }
        return deadlinePassed ? giveUpAt : deadlineAt
    }

    /// The call is about to be handed to the plugin; false when it must not be (it was answered already:
    /// cancelled or past its deadline while queued).
    mutating func begin() -> Bool {
        guard stage == .queued else { return false }
        stage = .invoking
        return true
    }

    /// The plugin's `invoke` returned (or the call's frame was written to its worker).
    mutating func invokeReturned() -> Action {
        guard stage == .invoking else { return .none }
        stage = .invoked
        guard let reason = cancelAfterInvoke else { return .none }
        cancelAfterInvoke = nil
        return .cancelPlugin(reason)
    }

    /// The calling task was cancelled, or the deadline passed (``tick(now:sends:)`` says so itself).
    mutating func cancel(_ reason: PluginCancelReason) -> Action {
        switch stage {
        case .queued:
            let code: PluginResultCode = reason == .deadline ? .deadlineBeforeSend : .cancelled
            return answer(.failure(PluginCallError(code, message: "the call never started")))
        case .invoking:
            if cancelAfterInvoke == nil { cancelAfterInvoke = reason }
            return .none
        case .invoked:
            return .cancelPlugin(reason)
        case .answered:
            return .none
        }
    }

    /// The clock reads `now` and the plugin's sends count `sends`.
    mutating func tick(now: Duration, sends: UInt64) -> Action {
        guard stage != .answered else { return .none }
        if !deadlinePassed {
            guard now >= deadlineAt else { return .none }
            deadlinePassed = true
            return cancel(.deadline)
        }
        guard now >= giveUpAt else { return .none }
        return answer(.failure(deadlineError(sends: sends)))
    }

    /// The plugin completed the call with `reply`. A plugin that answers the deadline's cancel with
    /// `cancelled` is answered like a plugin that did not answer at all, only sooner.
    mutating func completed(_ reply: Data, sends: UInt64) -> Action {
        guard stage != .answered else { return .ignoreLate }
        if deadlinePassed, Self.isCancelled(reply) {
            return answer(.failure(deadlineError(sends: sends)))
        }
        return answer(.success(reply))
    }

    /// The plugin cannot answer any more (its worker ended): `sentCode` when it asked for an outbound
    /// send since the call began, `unsentCode` otherwise.
    mutating func lost(sentCode: PluginResultCode, unsentCode: PluginResultCode, _ message: String, sends: UInt64)
        -> Action
    {
        guard stage != .answered else { return .none }
        return answer(.failure(PluginCallError(sends > sendsAtStart ? sentCode : unsentCode, message: message)))
    }

    /// The host answers the call itself with `error` (the worker was gone before the call was written).
    mutating func fail(_ error: PluginCallError) -> Action {
        guard stage != .answered else { return .none }
        return answer(.failure(error))
    }

    private mutating func answer(_ result: Result<Data, PluginCallError>) -> Action {
        stage = .answered
        cancelAfterInvoke = nil
        return .answer(result)
    }

    private func deadlineError(sends: UInt64) -> PluginCallError {
        PluginCallError(
            sends > sendsAtStart ? .deadlineExceeded : .deadlineBeforeSend,
            message: "the plugin did not answer within \(deadline.seconds) s")
    }

    /// Whether `reply` is the plugin's `cancelled` error.
    static func isCancelled(_ reply: Data) -> Bool {
        let decoded = try? PluginJSON.decode(PluginReply<JSONValue>.self, from: reply)
        return decoded?.error?.code == PluginResultCode.cancelled.rawValue
    }
}
