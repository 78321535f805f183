import Foundation

/// One created plugin instance: a provider value plus the tasks of its calls in flight.
final class PluginExportInstance: @unchecked Sendable {
    /// Runs one flow on the provider: request JSON in, `PluginReply` JSON out. Never throws.
    typealias Dispatch = @Sendable (Flow, Data) async -> Data

    private let dispatch: Dispatch
    private let lock = NSLock()
    private var tasks: [UInt64: Task<Void, Never>] = [:]

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

    /// Starts call `callID`; `sink` is completed exactly once, from the call's task.
    func start(callID: UInt64, method: String, body: Data, sink: ExportCompletion) {
        let flow = Flow(rawValue: method)
        let dispatch = self.dispatch
        lock.lock()
        defer { lock.unlock() }
        // The task cannot remove itself before it is registered: `finish` takes the same lock.
        tasks[callID] = Task {
            let reply: Data
            if let flow {
                reply = await dispatch(flow, body)
            } else {
                reply = Self.errorReply(.notSupported, message: "unknown method")
            }
            self.finish(callID: callID)
            sink.complete(reply)
        }
    }

    /// Cancels the task of call `callID`, if it is still running. Its completion is still called once.
    func cancel(callID: UInt64) {
        lock.lock()
        let task = tasks[callID]
        lock.unlock()
        task?.cancel()
    }

    /// Cancels every call in flight (used when the instance is destroyed).
    func cancelAll() {
        lock.lock()
        let running = Array(tasks.values)
        lock.unlock()
        for task in running {
            task.cancel()
        }
    }

    /// How many calls are in flight.
    var inFlight: Int {
        lock.lock()
        defer { lock.unlock() }
        return tasks.count
    }

    private func finish(callID: UInt64) {
        lock.lock()
        tasks[callID] = nil
        lock.unlock()
    }

    /// A `PluginReply` carrying an error, as JSON.
    static func errorReply(_ code: PluginResultCode, message: String) -> Data {
        let reply = PluginReply<JSONValue>(error: ProviderErrorBody(code: code.rawValue, message: message))
        if let data = try? PluginJSON.encoder().encode(reply) {
            return data
        }
        return Data(#"{"error":{"code":"plugin_error","message":"reply could not be encoded"}}"#.utf8)
    }
}
