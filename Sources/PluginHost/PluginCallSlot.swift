import Foundation
import ProviderKit

/// Counts the outbound sends a plugin asked the host for. A call that ends without the plugin's answer is
/// `notSent` only if no send happened since it began (any send of the plugin counts: conservative).
final class SendLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var sends: UInt64 = 0

    /// Records one `http_send` reaching the host.
    func record() {
        lock.lock()
        sends &+= 1
        lock.unlock()
    }

    /// Sends recorded so far.
    var count: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return sends
    }
}

/// One plugin call waiting for its answer: the plugin's completion, or the host's own answer (at the
/// deadline, or when the worker died). The first answer wins; later ones are ignored.
final class PluginCallSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<Data, PluginCallError>, Never>?
    private var early: Result<Data, PluginCallError>?
    private var answered = false
    private var started = false
    private var cancelRequested = false
    private var deadlinePassed = false
    private var cancelHandler: (@Sendable () -> Void)?
    private let ledger: SendLedger
    private let sendsAtStart: UInt64

    init(ledger: SendLedger) {
        self.ledger = ledger
        sendsAtStart = ledger.count
    }

    /// Answers the call, unless it was already answered; false when it was (this answer is ignored).
    @discardableResult
    func finish(_ result: Result<Data, PluginCallError>) -> Bool {
        lock.lock()
        guard !answered else {
            lock.unlock()
            return false
        }
        answered = true
        let waiting = continuation
        continuation = nil
        if waiting == nil { early = result }
        lock.unlock()
        waiting?.resume(returning: result)
        return true
    }

    /// Answers the call for a plugin that did not: `unsentCode` when the plugin asked for no outbound
    /// send since the call began, `sentCode` otherwise.
    func abandon(sentCode: PluginResultCode, unsentCode: PluginResultCode, _ message: String) {
        let sent = ledger.count > sendsAtStart
        finish(.failure(PluginCallError(sent ? sentCode : unsentCode, message: message)))
    }

    /// Records that the deadline passed and the plugin is asked to cancel.
    fileprivate func markDeadlinePassed() {
        lock.withLock { deadlinePassed = true }
    }

    /// `result` as the caller sees it: a plugin that answered the deadline's cancel with `cancelled` is
    /// answered like a plugin that did not answer at all (`deadline_before_send` when it asked for no
    /// outbound send since the call began, otherwise `deadline_exceeded`), only sooner.
    fileprivate func afterDeadline(
        _ result: Result<Data, PluginCallError>, deadline: Duration
    ) -> Result<Data, PluginCallError> {
        guard lock.withLock({ deadlinePassed }), case .success(let data) = result,
            let reply = try? PluginJSON.decoder().decode(PluginReply<JSONValue>.self, from: data),
            reply.error?.code == PluginResultCode.cancelled.rawValue
        else { return result }
        let sent = ledger.count > sendsAtStart
        return .failure(
            PluginCallError(
                sent ? .deadlineExceeded : .deadlineBeforeSend,
                message: "the plugin did not answer within \(deadline.seconds) s"))
    }

    /// Sets how to ask the plugin to stop this call (used by ``cancelCall()``).
    func setCancel(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        cancelHandler = handler
        lock.unlock()
    }

    /// Asks the plugin to stop this call, if it was handed over and is not answered yet.
    func cancelCall() {
        lock.lock()
        let handler = answered ? nil : cancelHandler
        lock.unlock()
        handler?()
    }

    var isAnswered: Bool {
        lock.lock()
        defer { lock.unlock() }
        return answered
    }

    fileprivate func attach(_ waiting: CheckedContinuation<Result<Data, PluginCallError>, Never>) {
        lock.lock()
        if let result = early {
            early = nil
            lock.unlock()
            waiting.resume(returning: result)
            return
        }
        continuation = waiting
        lock.unlock()
    }

    /// Records that the call was handed to the plugin; true if a cancellation was requested before.
    fileprivate func markStarted() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        started = true
        return cancelRequested
    }

    /// Records a cancellation; true if the call was already handed to the plugin (so cancel now).
    fileprivate func requestCancel() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        cancelRequested = true
        return started && !answered
    }
}

/// Why the host asks a plugin to stop a call.
enum PluginCancelReason: Sendable {
    /// The calling task was cancelled.
    case task
    /// The call reached its deadline.
    case deadline
}

extension PluginCallSlot {
    /// Runs one call: `start` hands it to the plugin (and arranges for ``finish(_:)``); `cancel` asks the
    /// plugin to stop it, after `start`, when the calling task is cancelled or the deadline passes. At
    /// `deadline` + `grace` without an answer the host answers `deadline_before_send` (nothing was sent)
    /// or `deadline_exceeded`.
    static func run(
        deadline: Duration, grace: Duration, ledger: SendLedger, start: @escaping @Sendable (PluginCallSlot) -> Void,
        cancel: @escaping @Sendable (PluginCallSlot, PluginCancelReason) -> Void
    ) async -> Result<Data, PluginCallError> {
        let slot = PluginCallSlot(ledger: ledger)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiting: CheckedContinuation<Result<Data, PluginCallError>, Never>) in
                slot.attach(waiting)
                start(slot)
                if slot.markStarted() {
                    cancel(slot, .task)
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline.dispatchInterval) {
                    guard !slot.isAnswered else { return }
                    slot.markDeadlinePassed()
                    cancel(slot, .deadline)
                    DispatchQueue.global().asyncAfter(deadline: .now() + grace.dispatchInterval) {
                        slot.abandon(
                            sentCode: .deadlineExceeded, unsentCode: .deadlineBeforeSend,
                            "the plugin did not answer within \(deadline.seconds) s")
                    }
                }
            }
        } onCancel: {
            if slot.requestCancel() {
                cancel(slot, .task)
            }
        }
        return slot.afterDeadline(result, deadline: deadline)
    }
}
