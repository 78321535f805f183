import CSwitchyardPlugin
import Foundation
import ProviderKit

/// A C host-services table for driving a plugin table in-process, answering `http_send` from a script.
final class ScriptedHost: @unchecked Sendable {
    struct LogLine: Equatable {
        var level: Int32
        var message: String
        var metadata: [String: String]
    }

    private let respond: @Sendable (OutboundRequest) -> OutboundResult
    private let lock = NSLock()
    private var requests: [OutboundRequest] = []
    private var logLines: [LogLine] = []
    let nowMs: Int64
    /// The level the table's `log_level` answers, or `nil` for a table without it (an older host).
    let logLevel: Int32?
    let table: UnsafeMutablePointer<sy_host_services>

    init(
        nowMs: Int64 = 1_700_000_000_123, logLevel: Int32? = nil,
        respond: @escaping @Sendable (OutboundRequest) -> OutboundResult
    ) {
        self.respond = respond
        self.nowMs = nowMs
        self.logLevel = logLevel
        table = .allocate(capacity: 1)
        table.initialize(
            to: sy_host_services(
                abi_version: UInt32(SWITCHYARD_PLUGIN_ABI_VERSION),
                struct_size: UInt32(MemoryLayout<sy_host_services>.size),
                host_context: nil, http_send: scriptedSend, log: scriptedLog, now_ms: scriptedNow,
                log_level: logLevel == nil ? nil : scriptedLogLevel
            )
        )
        table.pointee.host_context = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        table.deallocate()
    }

    var sentRequests: [OutboundRequest] {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }

    var logs: [LogLine] {
        lock.lock()
        defer { lock.unlock() }
        return logLines
    }

    fileprivate func handle(_ json: Data, completion: @escaping @Sendable (Data) -> Void) {
        Task {
            let request = try! PluginJSON.decoder().decode(OutboundRequest.self, from: json)
            lock.withLock { requests.append(request) }
            completion(try! PluginJSON.encoder().encode(respond(request)))
        }
    }

    fileprivate func record(_ line: LogLine) {
        lock.lock()
        logLines.append(line)
        lock.unlock()
    }
}

private struct CompletionCall: @unchecked Sendable {
    let function: sy_completion_fn
    let context: UnsafeMutableRawPointer?
}

private let scriptedSend:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int, sy_completion_fn?, UnsafeMutableRawPointer?)
        -> Void = { context, json, length, completion, completionContext in
            let host = Unmanaged<ScriptedHost>.fromOpaque(context!).takeUnretainedValue()
            let call = CompletionCall(function: completion!, context: completionContext)
            host.handle(Data(bytes: json!, count: length)) { reply in
                var bytes = reply
                bytes.append(0)
                bytes.withUnsafeBytes { raw in
                    call.function(call.context, raw.baseAddress!.assumingMemoryBound(to: CChar.self), reply.count)
                }
            }
        }

private let scriptedLog:
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void = {
        context, level, message, metadata in
        let host = Unmanaged<ScriptedHost>.fromOpaque(context!).takeUnretainedValue()
        let decoded = metadata.flatMap {
            try? JSONDecoder().decode([String: String].self, from: Data(String(cString: $0).utf8))
        }
        host.record(ScriptedHost.LogLine(level: level, message: String(cString: message!), metadata: decoded ?? [:]))
    }

private let scriptedLogLevel: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
    Unmanaged<ScriptedHost>.fromOpaque(context!).takeUnretainedValue().logLevel ?? 0
}

private let scriptedNow: @convention(c) (UnsafeMutableRawPointer?) -> Int64 = { context in
    Unmanaged<ScriptedHost>.fromOpaque(context!).takeUnretainedValue().nowMs
}
