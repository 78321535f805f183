import Foundation
import NIOCore
import PluginWorkerCore
import ProviderKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The server's side of one plugin worker process: its handshake, the frames of its calls and the host
/// services it asks for, over a NIO channel on the server's end of the socket pair
/// (``WorkerConnectionHandler``). The decisions are ``WorkerConnectionMachine``'s; the calls themselves are
/// ``PluginCalls`` entries owned by ``owner``.
///
/// When the stream ends the process is reaped off the event loop, every call in flight is answered
/// (`worker_lost_before_send` when the plugin asked for no outbound send since the call began,
/// `worker_lost` otherwise) and ``onExit`` learns how the process ended.
final class WorkerConnection: Sendable {
    let pid: pid_t
    /// The owner of this worker's calls in ``PluginCalls`` (their ids are the ids its frames carry).
    let owner = PluginCalls.shared.makeOwner()
    private let bridge: HostServicesBridge
    private let timer: any PluginTimer
    private let onExit: @Sendable (WorkerConnection, String) -> Void

    private struct State {
        var machine: WorkerConnectionMachine
        var channel: (any Channel)?
        /// The launch waiting for the handshake, or the handshake's outcome when it came first.
        var launch: CheckedContinuation<Void, any Error>?
        var settled: PluginRefusal??
        var wake: PluginWake?
        var reaped = false
    }

    private let state: Mutex<State>

    private init(
        pid: pid_t, bridge: HostServicesBridge, timer: any PluginTimer, timeout: Duration,
        onExit: @escaping @Sendable (WorkerConnection, String) -> Void
    ) {
        self.pid = pid
        self.bridge = bridge
        self.timer = timer
        self.onExit = onExit
        state = Mutex(State(machine: WorkerConnectionMachine(handshakeUntil: timer.now + timeout)))
    }

    /// Starts a worker for the plugin image at `file` and waits, without holding a thread, until it created
    /// its instance.
    ///
    /// - Throws: ``PluginRefusal`` `create_failed` when the worker cannot start, reports a failure, dies,
    ///   or stays silent for `timeout`.
    static func launch(
        executable: PluginExecutable, file: String, bridge: HostServicesBridge, timeout: Duration,
        timer: any PluginTimer, onExit: @escaping @Sendable (WorkerConnection, String) -> Void
    ) async throws(PluginRefusal) -> WorkerConnection {
        let (pid, fd) = try WorkerSpawn.spawn(
            executable: executable.workerPath, pluginFile: file, logLevel: bridge.services.logLevel)
        let connection = WorkerConnection(pid: pid, bridge: bridge, timer: timer, timeout: timeout, onExit: onExit)
        do {
            let channel = try await WorkerConnectionHandler.channel(fd: fd, connection: connection)
            connection.state.withLock { $0.channel = channel }
        } catch {
            connection.reap()
            throw PluginRefusal(.createFailed, "no channel to the plugin worker (\(error))")
        }
        connection.scheduleHandshakeTimeout()
        do {
            try await withCheckedThrowingContinuation { (launch: CheckedContinuation<Void, any Error>) in
                let settled: PluginRefusal?? = connection.state.withLock { state in
                    guard let settled = state.settled else {
                        state.launch = launch
                        return nil
                    }
                    return .some(settled)
                }
                if let settled {
                    if let refusal = settled { launch.resume(throwing: refusal) } else { launch.resume() }
                }
            }
        } catch {
            throw error as? PluginRefusal ?? PluginRefusal(.createFailed, "\(error)")
        }
        return connection
    }

    /// Sends the call `id` of `method` to the worker, with the server's clock.
    func start(_ id: UInt64, method: String, payload: Data) {
        let calls = PluginCalls.shared
        guard calls.begin(id) else { return }
        guard let channel = state.withLock({ $0.machine.isServing ? $0.channel : nil }) else {
            calls.fail(id, PluginCallError(.workerLostBeforeSend, message: "the plugin worker ended"))
            return
        }
        channel.writeAndFlush(
            WorkerFrame.invoke(id: id, method: method, clockMs: bridge.nowMilliseconds(), request: payload),
            promise: nil)
        calls.invokeReturned(id)
    }

    /// Asks the worker to stop the call `id`.
    func cancel(_ id: UInt64) {
        state.withLock { $0.channel }?.writeAndFlush(WorkerFrame.cancel(id: id), promise: nil)
    }

    /// Kills the worker (the end of its stream then reaps it and answers the calls in flight).
    func terminate() {
        let channel = state.withLock { state in
            if !state.reaped { kill(pid, SIGKILL) }
            return state.channel
        }
        channel?.close(promise: nil)
    }

    /// Ends the worker gracefully: it exits when its stream ends.
    func close() {
        state.withLock { $0.channel }?.close(promise: nil)
    }

    /// A frame from the worker, on the event loop of its `channel`.
    func handle(_ frame: WorkerFrame, on channel: any Channel) {
        switch frame {
        case .ready:
            perform(state.withLock { $0.machine.ready() })
        case .failed(let reason):
            perform(state.withLock { $0.machine.failed(reason) })
        case .reply(let id, let json):
            if !PluginCalls.shared.complete(id, json, owner: owner) {
                // A second completion of one call, or one after the host answered it: the ABI's
                // exactly-once rule broken. Ignored, and said (`switchyard plugins check` counts these).
                bridge.log(
                    level: PluginLogLevel.warning.rawValue, message: "plugin completed a call no longer in flight",
                    metadataJSON: #"{"plugin.call.id":"\#(id)"}"#)
            }
        case .send(let id, let request):
            bridge.send(request, on: EventLoopTaskExecutor(channel.eventLoop)) { [bridge] result in
                channel.writeAndFlush(
                    WorkerFrame.sendResult(id: id, clockMs: bridge.nowMilliseconds(), result: result), promise: nil)
            }
        case .log(let level, let message, let metadata):
            bridge.log(level: level, message: message, metadataJSON: metadata)
        case .invoke, .cancel, .sendResult:
            break
        }
    }

    /// The worker's stream ended: reap it off the event loop.
    func streamEnded() {
        DispatchQueue.global().async { self.reap() }
    }

    /// Kills and reaps the process (once), then answers the calls in flight and reports the exit.
    private func reap() {
        let first = state.withLock { state in
            defer { state.reaped = true }
            return !state.reaped
        }
        guard first else { return }
        // Not reaped yet, so the pid is still this worker's.
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        perform(state.withLock { $0.machine.exited(Self.describe(status)) })
    }

    private func scheduleHandshakeTimeout() {
        guard let at = state.withLock({ $0.machine.wakeAt }) else { return }
        let wake = timer.wake(at: at) { [self] in
            perform(state.withLock { [timer] in $0.machine.tick(now: timer.now) })
        }
        let keep = state.withLock { state in
            guard state.machine.wakeAt != nil else { return false }
            state.wake = wake
            return true
        }
        if !keep { wake.cancel() }
    }

    /// Carries out what the machine decided.
    private func perform(_ action: WorkerConnectionMachine.Action) {
        switch action {
        case .none:
            break
        case .ready:
            settle(nil)
        case .refuse(let reason):
            settle(PluginRefusal(.createFailed, reason))
            terminate()
        case .ended(let description, let refusal):
            if let refusal { settle(PluginRefusal(.createFailed, refusal)) }
            PluginCalls.shared.lose(
                owner: owner, sentCode: .workerLost, unsentCode: .workerLostBeforeSend,
                "the plugin worker \(description)")
            onExit(self, description)
        }
    }

    /// Ends the launch's wait: `nil` when the worker serves.
    private func settle(_ refusal: PluginRefusal?) {
        let (launch, wake) = state.withLock { state in
            if state.launch == nil, state.settled == nil { state.settled = .some(refusal) }
            defer {
                state.launch = nil
                state.wake = nil
            }
            return (state.launch, state.wake)
        }
        wake?.cancel()
        if let refusal { launch?.resume(throwing: refusal) } else { launch?.resume() }
    }

    /// "exited with status N" or "was killed by signal N".
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(signal)"
    }
}
