import Foundation
import NIOCore
import PluginWorkerCore
import ProviderKit

#if canImport(Glibc)
    import Glibc
#endif

/// The server's side of one plugin worker process: its calls in flight and the host services it asks
/// for, over a NIO channel on the server's end of the socket pair (``WorkerConnectionHandler``).
///
/// When the stream ends the process is reaped off the event loop, every call in flight is answered
/// (`worker_lost_before_send` when the plugin asked for no outbound send since the call began,
/// `worker_lost` otherwise) and ``onExit`` learns how the process ended.
final class WorkerConnection: @unchecked Sendable {
    let pid: pid_t
    private let bridge: HostServicesBridge
    private let lock = NSLock()
    private var channel: (any Channel)?
    /// The owner of this worker's calls in ``PluginCalls`` (their ids are the ids its frames carry).
    let owner = PluginCalls.shared.makeOwner()
    private var handshake: HandshakeState = .waiting
    private var exited = false
    private let handshakeDone = DispatchSemaphore(value: 0)
    /// Called once, off the event loop, after the process ended (with a description of how).
    var onExit: (@Sendable (WorkerConnection, String) -> Void)?

    private enum HandshakeState {
        case waiting
        case ready
        case failed(String)
    }

    private init(pid: pid_t, bridge: HostServicesBridge) {
        self.pid = pid
        self.bridge = bridge
    }

    /// Starts a worker for the plugin image at `file` and waits until it created its instance.
    ///
    /// - Throws: ``PluginRefusal`` `create_failed` when the worker cannot start, reports a failure, dies,
    ///   or stays silent for `timeout`.
    static func launch(
        executable: PluginExecutable, file: String, bridge: HostServicesBridge, timeout: Duration,
        onExit: @escaping @Sendable (WorkerConnection, String) -> Void
    ) throws(PluginRefusal) -> WorkerConnection {
        let (pid, fd) = try WorkerSpawn.spawn(executable: executable.workerPath, pluginFile: file)
        let connection = WorkerConnection(pid: pid, bridge: bridge)
        connection.onExit = onExit
        do {
            let channel = try WorkerConnectionHandler.channel(fd: fd, connection: connection)
            connection.lock.withLock { connection.channel = channel }
        } catch {
            connection.reap()
            throw PluginRefusal(.createFailed, "no channel to the plugin worker (\(error))")
        }
        if connection.handshakeDone.wait(timeout: .now() + timeout.dispatchInterval) == .timedOut {
            connection.terminate()
            throw PluginRefusal(.createFailed, "the plugin worker did not create an instance in time")
        }
        let state = connection.lock.withLock { connection.handshake }
        switch state {
        case .ready:
            return connection
        case .failed(let reason):
            connection.terminate()
            throw PluginRefusal(.createFailed, reason)
        case .waiting:
            connection.terminate()
            throw PluginRefusal(.createFailed, "the plugin worker ended before creating an instance")
        }
    }

    /// Sends the call `id` of `method` to the worker, with the server's clock.
    func start(_ id: UInt64, method: String, payload: Data) {
        let calls = PluginCalls.shared
        guard calls.begin(id) else { return }
        guard let channel = lock.withLock({ exited ? nil : channel }) else {
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
        lock.withLock { channel }?.writeAndFlush(WorkerFrame.cancel(id: id), promise: nil)
    }

    /// Kills the worker (the end of its stream then reaps it and answers the calls in flight).
    func terminate() {
        lock.lock()
        if !exited { kill(pid, SIGKILL) }
        let channel = self.channel
        lock.unlock()
        channel?.close(promise: nil)
    }

    /// Ends the worker gracefully: it exits when its stream ends.
    func close() {
        lock.withLock { channel }?.close(promise: nil)
    }

    /// A frame from the worker, on the event loop of its `channel`.
    func handle(_ frame: WorkerFrame, on channel: any Channel) {
        switch frame {
        case .ready:
            settleHandshake(.ready)
        case .failed(let reason):
            settleHandshake(.failed(reason))
        case .reply(let id, let json):
            if !PluginCalls.shared.complete(id, json, owner: owner) {
                // A second completion of one call, or one after the host answered it: the ABI's
                // exactly-once rule broken. Ignored, and said (`switchyard plugins check` counts these).
                bridge.log(
                    level: PluginLogLevel.warning.rawValue, message: "plugin completed a call no longer in flight",
                    metadataJSON: #"{"plugin.call.id":"\#(id)"}"#)
            }
        case .send(let id, let request):
            bridge.send(request) { [bridge] result in
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
        var status: Int32 = 0
        lock.lock()
        guard !exited else {
            lock.unlock()
            return
        }
        // Not reaped yet, so the pid is still this worker's.
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exited = true
        let description = Self.describe(status)
        if case .waiting = handshake {
            handshake = .failed("the plugin worker \(description) before creating an instance")
        }
        lock.unlock()
        handshakeDone.signal()
        PluginCalls.shared.lose(
            owner: owner, sentCode: .workerLost, unsentCode: .workerLostBeforeSend, "the plugin worker \(description)")
        onExit?(self, description)
    }

    private func settleHandshake(_ state: HandshakeState) {
        lock.lock()
        guard case .waiting = handshake else {
            lock.unlock()
            return
        }
        handshake = state
        lock.unlock()
        handshakeDone.signal()
    }

    /// "exited with status N" or "was killed by signal N".
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(signal)"
    }
}
