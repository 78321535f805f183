import Foundation
import ProviderKit

#if canImport(Glibc)
    import Glibc
#endif

/// The server's side of one plugin worker process: its calls in flight and the host services it asks
/// for. A thread per worker reads its messages; when the stream ends the process is reaped, every call
/// in flight is answered (`worker_lost_before_send` when the plugin asked for no outbound send since the
/// call began, `worker_lost` otherwise) and ``onExit`` learns how the process ended.
final class WorkerConnection: @unchecked Sendable {
    let pid: pid_t
    private let channel: FrameSocket
    private let bridge: HostServicesBridge
    private let lock = NSLock()
    private var calls: [UInt64: PluginCallSlot] = [:]
    private var nextCallID: UInt64 = 1
    private var handshake: HandshakeState = .waiting
    private var exited = false
    private let handshakeDone = DispatchSemaphore(value: 0)
    /// Called once, on the reader thread, after the process ended (with a description of how).
    var onExit: (@Sendable (WorkerConnection, String) -> Void)?

    private enum HandshakeState {
        case waiting
        case ready
        case failed(String)
    }

    private init(pid: pid_t, fd: Int32, bridge: HostServicesBridge) {
        self.pid = pid
        channel = FrameSocket(fd: fd)
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
        let (pid, fd) = try WorkerSpawn.spawn(executable: executable.path, pluginFile: file)
        let connection = WorkerConnection(pid: pid, fd: fd, bridge: bridge)
        connection.onExit = onExit
        let reader = Thread { connection.readLoop() }
        reader.name = "plugin worker \(pid)"
        reader.start()
        if connection.handshakeDone.wait(timeout: .now() + timeout.dispatchInterval) == .timedOut {
            connection.terminate()
            throw PluginRefusal(.createFailed, "the plugin worker did not create an instance in time")
        }
        connection.lock.lock()
        let state = connection.handshake
        connection.lock.unlock()
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

    /// Sends the call of `method` to the worker; its answer goes to `slot`.
    func start(method: String, payload: Data, slot: PluginCallSlot) {
        lock.lock()
        if exited {
            lock.unlock()
            slot.finish(.failure(PluginCallError(.workerLostBeforeSend, message: "the plugin worker ended")))
            return
        }
        let id = nextCallID
        nextCallID &+= 1
        calls[id] = slot
        lock.unlock()
        slot.setCancel { [channel] in channel.send(.cancel(id: id)) }
        channel.send(.invoke(id: id, method: method, clockMs: bridge.nowMilliseconds(), request: payload))
    }

    /// Kills the worker (its reader then reaps it and answers the calls in flight).
    func terminate() {
        lock.lock()
        if !exited { kill(pid, SIGKILL) }
        lock.unlock()
        channel.shutdownBoth()
    }

    /// Ends the worker gracefully: it exits when its stream ends.
    func close() {
        channel.shutdownBoth()
    }

    private func readLoop() {
        while let frame = channel.receive() {
            handle(frame)
        }
        var status: Int32 = 0
        lock.lock()
        // Not reaped yet, so the pid is still this worker's.
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exited = true
        let description = Self.describe(status)
        let lost = calls
        calls = [:]
        if case .waiting = handshake {
            handshake = .failed("the plugin worker \(description) before creating an instance")
        }
        lock.unlock()
        handshakeDone.signal()
        for slot in lost.values {
            slot.abandon(
                sentCode: .workerLost, unsentCode: .workerLostBeforeSend, "the plugin worker \(description)")
        }
        onExit?(self, description)
    }

    private func handle(_ frame: WorkerFrame) {
        switch frame {
        case .ready:
            settleHandshake(.ready)
        case .failed(let reason):
            settleHandshake(.failed(reason))
        case .reply(let id, let json):
            lock.lock()
            let slot = calls.removeValue(forKey: id)
            lock.unlock()
            slot?.finish(.success(json))
        case .send(let id, let request):
            bridge.send(request) { [channel, bridge] result in
                channel.send(.sendResult(id: id, clockMs: bridge.nowMilliseconds(), result: result))
            }
        case .log(let level, let message, let metadata):
            bridge.log(level: level, message: message, metadataJSON: metadata)
        case .invoke, .cancel, .sendResult:
            break
        }
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
