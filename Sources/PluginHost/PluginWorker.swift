import CSwitchyardPlugin
import Foundation
import ProviderKit

#if canImport(Glibc)
    import Glibc
#endif

/// The worker process side: opens one plugin image, creates its instance with host services that
/// forward to the server over the channel, and serves the server's calls until the channel ends.
///
/// Calls and their completions run on a concurrent queue, never on the thread reading the channel, so
/// a plugin that blocks (or asks for the time synchronously) never stops the worker from reading.
public enum PluginWorker {
    /// Serves the plugin image at `file` on the connected socket `fd`; returns the exit status.
    public static func serve(file: String, fd: Int32) -> Int32 {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
        let channel = WorkerChannel(fd: fd)
        let table: PluginTable
        do throws(PluginRefusal) {
            table = try PluginImage.open(file)
        } catch {
            channel.send(WorkerMessage(kind: .failed, body: error.reason))
            return 1
        }
        let host = WorkerHost(channel: channel)
        WorkerHost.shared = host
        let reader = Thread { host.readLoop() }
        reader.name = "plugin worker reader"
        reader.start()
        guard let create = table.entries.create, let invoke = table.entries.invoke,
            let instance = create(host.table)
        else {
            channel.send(WorkerMessage(kind: .failed, body: "the plugin's create returned no instance"))
            return 1
        }
        host.serve(instance: instance, invoke: invoke, cancel: table.entries.cancel)
        channel.send(WorkerMessage(kind: .ready))
        host.finished.wait()
        return 0
    }
}

/// The host services of the worker's instance, forwarded to the server.
final class WorkerHost: @unchecked Sendable {
    nonisolated(unsafe) static var shared: WorkerHost?

    let channel: WorkerChannel
    let table: UnsafeMutablePointer<sy_host_services>
    /// Signalled when the server's channel ends.
    let finished = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "plugin worker calls", attributes: .concurrent)
    private let lock = NSLock()
    private var nextRequest: UInt64 = 1
    private var sends: [UInt64: HostCompletion] = [:]
    private var clockAnswers: [UInt64: ClockAnswer] = [:]
    private var instance: UnsafeMutableRawPointer?
    private var invoke: PluginInstanceHandle.InvokeFunction?
    private var cancel: PluginInstanceHandle.CancelFunction?
    private var early: [WorkerMessage] = []

    init(channel: WorkerChannel) {
        self.channel = channel
        table = .hostServices(httpSend: workerHTTPSend, log: workerLog, now: workerNow)
    }

    /// Starts serving calls with the created instance (calls that arrived before are served now).
    func serve(
        instance: UnsafeMutableRawPointer, invoke: @escaping PluginInstanceHandle.InvokeFunction,
        cancel: PluginInstanceHandle.CancelFunction?
    ) {
        lock.lock()
        self.instance = instance
        self.invoke = invoke
        self.cancel = cancel
        let waiting = early
        early = []
        lock.unlock()
        waiting.forEach(dispatch)
    }

    func readLoop() {
        while let message = channel.receive() {
            dispatch(message)
        }
        finished.signal()
        // The server is gone: nothing more to serve.
        exit(0)
    }

    private func dispatch(_ message: WorkerMessage) {
        switch message.kind {
        case .invoke, .cancel:
            lock.lock()
            guard let instance, let invoke else {
                early.append(message)
                lock.unlock()
                return
            }
            let entry = EntryPoints(instance: instance, invoke: invoke, cancel: self.cancel)
            lock.unlock()
            let id = message.id
            if message.kind == .invoke {
                let method = message.method ?? ""
                var body = Data((message.body ?? "").utf8)
                let length = body.count
                body.append(0)
                let request = body
                queue.async {
                    request.withUnsafeBytes { raw in
                        entry.invoke(
                            entry.instance, id, method, raw.baseAddress?.assumingMemoryBound(to: CChar.self), length,
                            workerCompletion, UnsafeMutableRawPointer(bitPattern: UInt(id)))
                    }
                }
            } else if let cancel = entry.cancel {
                queue.async { cancel(entry.instance, id) }
            }
        case .sendResult:
            lock.lock()
            let completion = sends.removeValue(forKey: message.id)
            lock.unlock()
            let body = Data((message.body ?? "").utf8)
            if let completion { queue.async { completion.complete(body) } }
        case .nowResult:
            lock.lock()
            let answer = clockAnswers.removeValue(forKey: message.id)
            lock.unlock()
            answer?.deliver(message.time)
        case .ready, .failed, .reply, .send, .log, .now:
            break
        }
    }

    fileprivate func reply(_ id: UInt64, _ json: Data) {
        channel.send(WorkerMessage(kind: .reply, id: id, body: String(decoding: json, as: UTF8.self)))
    }

    fileprivate func send(_ json: Data, completion: HostCompletion) {
        lock.lock()
        let id = nextRequest
        nextRequest &+= 1
        sends[id] = completion
        lock.unlock()
        if !channel.send(WorkerMessage(kind: .send, id: id, body: String(decoding: json, as: UTF8.self))) {
            lock.lock()
            sends[id] = nil
            lock.unlock()
            let result = OutboundResult(kind: .notSent, reason: "the server is gone")
            completion.complete((try? PluginJSON.encoder().encode(result)) ?? Data())
        }
    }

    fileprivate func log(level: Int32, message: String, metadata: String?) {
        channel.send(WorkerMessage(kind: .log, body: message, level: level, metadata: metadata))
    }

    /// The server's clock; the worker's own if the server does not answer within a second.
    fileprivate func now() -> Int64 {
        let answer = ClockAnswer()
        lock.lock()
        let id = nextRequest
        nextRequest &+= 1
        clockAnswers[id] = answer
        lock.unlock()
        channel.send(WorkerMessage(kind: .now, id: id))
        if let time = answer.wait(.seconds(1)) { return time }
        lock.lock()
        clockAnswers[id] = nil
        lock.unlock()
        return Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

/// The instance and its entry points, handed to the call threads (the ABI lets any thread call them).
private struct EntryPoints: @unchecked Sendable {
    let instance: UnsafeMutableRawPointer
    let invoke: PluginInstanceHandle.InvokeFunction
    let cancel: PluginInstanceHandle.CancelFunction?
}

/// One synchronous `now` request waiting for the server's answer.
private final class ClockAnswer: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var time: Int64?

    func deliver(_ value: Int64?) {
        lock.lock()
        time = value
        lock.unlock()
        semaphore.signal()
    }

    func wait(_ limit: Duration) -> Int64? {
        guard semaphore.wait(timeout: .now() + limit.dispatchInterval) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return time
    }
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

private let workerNow: @convention(c) (UnsafeMutableRawPointer?) -> Int64 = { _ in
    WorkerHost.shared?.now() ?? Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
}
