import CPluginSandbox
import CSwitchyardPlugin
import Dispatch
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The host services of the worker's instance, forwarded to the server, and the server's frames handed
/// to the instance.
///
/// One table of work in flight: the outbound sends waiting for their result, keyed by the frame id the
/// worker gave them. The server's calls need none: a reply carries the call id the completion context
/// holds, and the server ignores a reply to a call it no longer waits for.
final class WorkerHost: @unchecked Sendable {
    // @unchecked: `table` is a raw pointer (to the C host-services table, never changed after `init`).
    nonisolated(unsafe) static var shared: WorkerHost?

    private struct State {
        var nextSend: UInt64 = 1
        var sends: [UInt64: HostCompletion] = [:]
        var entryPoints: EntryPoints?
        var early: [WorkerFrame] = []
    }

    let socket: FrameSocket
    let clock = WorkerClock()
    let table: UnsafeMutablePointer<sy_host_services>
    /// Signalled when the server's socket ends.
    let finished = DispatchSemaphore(value: 0)
    /// Where calls and completions run: `nil` on the reading thread (a plugin that returns promptly),
    /// else a concurrent queue.
    private let queue: DispatchQueue?
    private let state = Mutex(State())

    /// The kernel's name of the thread that reads the socket.
    static let readerThreadName = "sy-worker-read"

    /// The lowest level of the plugin's log lines the server records; lower ones stay in the worker.
    let logLevel: Int32
    /// The executor of the worker's tasks whose jobs the reader runs, when the plugin returns promptly.
    let executor: WorkerExecutor?

    init(socket: FrameSocket, callsOnReader: Bool, logLevel: Int32) {
        self.socket = socket
        self.logLevel = logLevel
        executor = callsOnReader ? WorkerExecutor() : nil
        queue = callsOnReader ? nil : DispatchQueue(label: "plugin worker calls", attributes: .concurrent)
        table = .hostServices(httpSend: workerHTTPSend, log: workerLog, now: workerNow, logLevel: workerLogLevel)
    }

    /// Starts serving calls with the created instance (calls that arrived before are served now).
    func serve(
        instance: UnsafeMutableRawPointer, invoke: @escaping PluginInvokeFunction, cancel: PluginCancelFunction?
    ) {
        let entryPoints = EntryPoints(instance: instance, invoke: invoke, cancel: cancel)
        let waiting = state.withLock { state -> [WorkerFrame] in
            state.entryPoints = entryPoints
            let early = state.early
            state.early = []
            return early
        }
        waiting.forEach(dispatch)
    }

    func readLoop() {
        sy_name_current_thread(Self.readerThreadName)
        socket.readFrames(runningJobsOf: executor) { frame in
            switch frame {
            case .invoke(_, _, let clockMs, _), .sendResult(_, let clockMs, _):
                clock.update(clockMs)
            default:
                break
            }
            dispatch(frame)
        }
        finished.signal()
        // The server is gone: nothing more to serve.
        exit(0)
    }

    private func dispatch(_ frame: WorkerFrame) {
        switch frame {
        case .invoke(let id, let method, _, let request):
            guard let entry = entryPointsOrKeep(frame) else { return }
            var body = request
            body.append(0)
            run { [body] in
                body.withUnsafeBytes { raw in
                    entry.invoke(
                        entry.instance, id, method, raw.baseAddress?.assumingMemoryBound(to: CChar.self),
                        request.count, workerCompletion, UnsafeMutableRawPointer(bitPattern: UInt(id)))
                }
            }
        case .cancel(let id):
            guard let entry = entryPointsOrKeep(frame), let cancel = entry.cancel else { return }
            run { cancel(entry.instance, id) }
        case .sendResult(let id, _, let result):
            let completion = state.withLock { $0.sends.removeValue(forKey: id) }
            if let completion { run { completion.complete(result) } }
        case .reply, .send, .log, .ready, .failed:
            break
        }
    }

    /// Runs a call into the plugin where this worker runs them: here, or on the queue.
    private func run(_ work: @escaping @Sendable () -> Void) {
        if let queue { queue.async(execute: work) } else { work() }
    }

    /// The instance's entry points, or `nil` after keeping `frame` until the instance exists.
    private func entryPointsOrKeep(_ frame: WorkerFrame) -> EntryPoints? {
        state.withLock { state -> EntryPoints? in
            guard let entryPoints = state.entryPoints else {
                state.early.append(frame)
                return nil
            }
            return entryPoints
        }
    }

    fileprivate func reply(_ id: UInt64, _ json: Data) {
        socket.send(.reply(id: id, json: json))
    }

    fileprivate func send(_ json: Data, completion: HostCompletion) {
        let id = state.withLock { state -> UInt64 in
            let id = state.nextSend
            state.nextSend &+= 1
            state.sends[id] = completion
            return id
        }
        if !socket.send(.send(id: id, request: json)) {
            let waiting = state.withLock { $0.sends.removeValue(forKey: id) }
            let result = OutboundResult(kind: .notSent, reason: "the server is gone")
            waiting?.complete((try? PluginJSON.encoder().encode(result)) ?? Data())
        }
    }

    fileprivate func log(level: Int32, message: String, metadata: String?) {
        guard level >= logLevel else { return }
        socket.send(.log(level: level, message: message, metadata: metadata.flatMap { $0.isEmpty ? nil : $0 }))
    }
}

/// The instance and its entry points, handed to the call threads (the ABI lets any thread call them).
private struct EntryPoints: @unchecked Sendable {
    let instance: UnsafeMutableRawPointer
    let invoke: PluginInvokeFunction
    let cancel: PluginCancelFunction?
}

private let workerCompletion: sy_completion_fn = { context, json, length in
    let data = json.map { Data(bytes: $0, count: length) } ?? Data()
    WorkerHost.shared?.reply(UInt64(UInt(bitPattern: context)), data)
}

private let workerHTTPSend:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int, sy_completion_fn?, UnsafeMutableRawPointer?)
        -> Void = { _, json, length, completion, completionContext in
            guard let completion else { return }
            let sink = HostCompletion(function: completion, context: completionContext)
            guard let json, let host = WorkerHost.shared else {
                let result = OutboundResult(kind: .notSent, reason: "malformed http_send call")
                sink.complete((try? PluginJSON.encoder().encode(result)) ?? Data())
                return
            }
            host.send(Data(bytes: json, count: length), completion: sink)
        }

private let workerLog:
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void = {
        _, level, message, metadata in
        guard let message else { return }
        WorkerHost.shared?.log(
            level: level, message: String(cString: message), metadata: metadata.map { String(cString: $0) })
    }

private let workerLogLevel: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { _ in
    WorkerHost.shared?.logLevel ?? 0
}

private let workerNow: @convention(c) (UnsafeMutableRawPointer?) -> Int64 = { _ in
    WorkerHost.shared?.clock.nowMilliseconds() ?? Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
}
