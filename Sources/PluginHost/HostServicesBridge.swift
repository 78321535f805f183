import CSwitchyardPlugin
import Foundation
import PluginWorkerCore
import ProviderKit

/// The host side of the host services: a C `sy_host_services` table backed by a Swift ``HostServices``.
///
/// One bridge per plugin instance. The table and the bridge live at least as long as the instance
/// (the owning ``PluginInstanceHandle`` destroys the instance first).
final class HostServicesBridge: @unchecked Sendable {
    let services: any HostServices
    let pluginID: String
    /// Counts the plugin's outbound sends (whether a call may have reached the provider).
    let sends = SendLedger()
    /// The table handed to the plugin's `create`.
    let table: UnsafeMutablePointer<sy_host_services>

    init(services: any HostServices, pluginID: String) {
        self.services = services
        self.pluginID = pluginID
        table = .hostServices(httpSend: bridgeHTTPSend, log: bridgeLog, now: bridgeNow, logLevel: bridgeLogLevel)
        table.pointee.host_context = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        table.deinitialize(count: 1)
        table.deallocate()
    }

    /// Serves one `http_send`: decodes the request, sends it, completes with the result's JSON.
    func send(_ requestJSON: Data, completion: HostCompletion) {
        send(requestJSON) { completion.complete($0) }
    }

    /// Serves one `http_send`: decodes the request, sends it, hands the result's JSON to `reply`.
    ///
    /// With `loop`, the whole service runs on that event loop (the worker channel's): the request is read,
    /// sent, answered and the result written back without moving to another thread.
    func send(_ requestJSON: Data, on loop: EventLoopTaskExecutor? = nil, reply: @escaping @Sendable (Data) -> Void) {
        sends.record()
        let services = self.services
        let pluginID = self.pluginID
        Task(executorPreference: loop) {
            let result: OutboundResult
            if let request = OutboundRequest.relayed(requestJSON) {
                result = await PluginTaskContext.$pluginID.withValue(pluginID) {
                    await PluginTaskContext.$eventLoop.withValue(loop?.loop) {
                        await services.send(request)
                    }
                }
            } else {
                result = OutboundResult(kind: .notSent, reason: "the plugin's request does not decode")
            }
            let json =
                (try? PluginJSON.encode(result))
                ?? Data(#"{"headers":[],"kind":"noResponse","reason":"result could not be encoded"}"#.utf8)
            reply(json)
        }
    }

    /// Serves one `log`: adds the plugin id and forwards to the host's logger. A line below the host's
    /// level is dropped before its metadata is read.
    func log(level: Int32, message: String, metadataJSON: String?) {
        let level = PluginLogLevel(rawValue: level) ?? .info
        guard level >= services.logLevel else { return }
        var metadata: [String: String] = [:]
        if let metadataJSON,
            let decoded = try? JSONDecoder().decode([String: String].self, from: Data(metadataJSON.utf8))
        {
            metadata = decoded
        }
        metadata["plugin.id"] = pluginID
        services.log(level, message, metadata: metadata)
    }

    func nowMilliseconds() -> Int64 {
        Int64((services.now().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

private let bridgeHTTPSend:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int, sy_completion_fn?, UnsafeMutableRawPointer?)
        -> Void = { hostContext, json, length, completion, completionContext in
            guard let completion else { return }
            let sink = HostCompletion(function: completion, context: completionContext)
            guard let hostContext, let json else {
                let result = OutboundResult(kind: .notSent, reason: "malformed http_send call")
                sink.complete((try? PluginJSON.encoder().encode(result)) ?? Data())
                return
            }
            let bridge = Unmanaged<HostServicesBridge>.fromOpaque(hostContext).takeUnretainedValue()
            bridge.send(Data(bytes: json, count: length), completion: sink)
        }

private let bridgeLog:
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void = {
        hostContext, level, message, metadata in
        guard let hostContext, let message else { return }
        let bridge = Unmanaged<HostServicesBridge>.fromOpaque(hostContext).takeUnretainedValue()
        bridge.log(level: level, message: String(cString: message), metadataJSON: metadata.map { String(cString: $0) })
    }

private let bridgeLogLevel: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { hostContext in
    guard let hostContext else { return PluginLogLevel.trace.rawValue }
    return Unmanaged<HostServicesBridge>.fromOpaque(hostContext).takeUnretainedValue().services.logLevel.rawValue
}

private let bridgeNow: @convention(c) (UnsafeMutableRawPointer?) -> Int64 = { hostContext in
    guard let hostContext else { return Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    return Unmanaged<HostServicesBridge>.fromOpaque(hostContext).takeUnretainedValue().nowMilliseconds()
}
