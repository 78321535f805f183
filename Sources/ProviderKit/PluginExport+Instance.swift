#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One created plugin instance: a provider value plus the calls in flight, each with its task and its
/// completion.
///
/// A call is completed exactly once, by whichever comes first: its task's reply, or a cancel, which
/// completes it at once with the error `cancelled` (the ABI's rule) and cancels the task, whose later
/// reply is dropped. A flow waiting for the host's `http_send` therefore never holds a cancelled call open.
final class PluginExportInstance: @unchecked Sendable {
    /// Runs one flow on the provider: request JSON in, `PluginReply` JSON out. Never throws.
    typealias Dispatch = @Sendable (Flow, Data) async -> Data

    private struct Call {
        var task: Task<Void, Never>
        var sink: ExportCompletion
    }

    private let dispatch: Dispatch
    private let lock = SDKLock()
    private var calls: [UInt64: Call] = [:]

    init(dispatch: @escaping Dispatch) {
        self.dispatch = dispatch
    }

    /// Constructs the provider `P` bound to `host`.
    static func make<P: Provider>(_ type: P.Type, host: CHostServices) -> PluginExportInstance {
        let provider = P(host: host)
        return PluginExportInstance { flow, body in
            await PluginExportDispatch.run(provider, flow: flow, body: body)
        }
    }

    /// Starts call `callID`; `sink` is completed exactly once, from the call's task or by ``cancel(callID:)``.
    func start(callID: UInt64, method: String, body: Data, sink: ExportCompletion) {
        let flow = Flow(rawValue: method)
        let dispatch = self.dispatch
        lock.lock()
        defer { lock.unlock() }
        // The task cannot finish before it is registered: `finish` takes the same lock.
        let task = Task {
            let reply: Data
            if let flow {
                reply = await dispatch(flow, body)
            } else {
                reply = Self.errorReply(.notSupported, message: "unknown method")
            }
            self.finish(callID: callID)?.complete(reply)
        }
        calls[callID] = Call(task: task, sink: sink)
    }

    /// Completes call `callID` with the error `cancelled` and cancels its task, if it is still running.
    func cancel(callID: UInt64) {
        lock.lock()
        let call = calls.removeValue(forKey: callID)
        lock.unlock()
        guard let call else { return }
        call.task.cancel()
        call.sink.complete(Self.errorReply(.cancelled, message: "the call was cancelled"))
    }

    /// Cancels every call in flight (used when the instance is destroyed).
    func cancelAll() {
        lock.lock()
        let running = Array(calls.keys)
        lock.unlock()
        for callID in running {
            cancel(callID: callID)
        }
    }

    /// How many calls are in flight.
    var inFlight: Int {
        lock.lock()
        defer { lock.unlock() }
        return calls.count
    }

    /// Ends call `callID`: its completion, unless a cancel completed it already.
    private func finish(callID: UInt64) -> ExportCompletion? {
        lock.lock()
        defer { lock.unlock() }
        return calls.removeValue(forKey: callID)?.sink
    }

    /// A `PluginReply` carrying an error, as JSON.
    static func errorReply(_ code: PluginResultCode, message: String) -> Data {
        let reply = PluginReply<JSONValue>(error: ProviderErrorBody(code: code.rawValue, message: message))
        if let data = try? PluginJSON.encode(reply) {
            return data
        }
        return Data(#"{"error":{"code":"plugin_error","message":"reply could not be encoded"}}"#.utf8)
    }
}
