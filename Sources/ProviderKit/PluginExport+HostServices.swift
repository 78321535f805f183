import CSwitchyardPlugin
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The plugin side of the host services: a Swift ``HostServices`` over the C `sy_host_services` table
/// the host passed to `create`.
struct CHostServices: HostServices, @unchecked Sendable {
    /// A copy of the host's table: the entries its `struct_size` covers, later ones NULL.
    private let table: sy_host_services

    /// The smallest host table used: up to `now_ms`, the last service this plugin calls.
    static let minimumSize =
        MemoryLayout<sy_host_services>.offset(of: \sy_host_services.now_ms)! + MemoryLayout<UnsafeRawPointer>.size

    /// Wraps `host`, or returns `nil` when its ABI version differs or its table is too small. A larger
    /// table (a newer host) is fine: only the entries this plugin knows are read.
    init?(_ host: UnsafePointer<sy_host_services>) {
        let raw = UnsafeRawPointer(host)
        let version = raw.load(as: UInt32.self)
        let size = raw.load(fromByteOffset: MemoryLayout<UInt32>.size, as: UInt32.self)
        guard version == UInt32(SWITCHYARD_PLUGIN_ABI_VERSION), Int(size) >= Self.minimumSize else {
            return nil
        }
        var copy = sy_host_services()
        let count = min(Int(size), MemoryLayout<sy_host_services>.size)
        withUnsafeMutableBytes(of: &copy) { $0.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: count)) }
        table = copy
    }

    func send(_ request: OutboundRequest) async -> OutboundResult {
        guard let httpSend = table.http_send else {
            return OutboundResult(kind: .notSent, reason: "the host offers no HTTP service")
        }
        guard let json = try? PluginJSON.encode(request) else {
            return OutboundResult(kind: .notSent, reason: "the request could not be encoded")
        }
        let context = table.host_context
        let reply: Data = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(DataContinuationBox(continuation)).toOpaque()
            var bytes = json
            bytes.append(0)
            bytes.withUnsafeBytes { raw in
                httpSend(context, raw.baseAddress?.assumingMemoryBound(to: CChar.self), json.count, hostReplied, box)
            }
        }
        guard let result = OutboundResult.relayed(reply) else {
            // The host may have sent the request: the safe reading of an unreadable answer is "no response".
            return OutboundResult(kind: .noResponse, reason: "the host's answer could not be decoded")
        }
        return result
    }

    func log(_ level: PluginLogLevel, _ message: String, metadata: [String: String]) {
        guard let log = table.log, level >= logLevel else { return }
        let context = table.host_context
        let metadataJSON =
            metadata.isEmpty ? nil : (try? PluginJSON.encode(metadata)).map { String(decoding: $0, as: UTF8.self) }
        message.withCString { messagePointer in
            if let metadataJSON {
                metadataJSON.withCString { log(context, level.rawValue, messagePointer, $0) }
            } else {
                log(context, level.rawValue, messagePointer, nil)
            }
        }
    }

    /// The host's `log_level`, or every level when the host's table has none (an older host).
    var logLevel: PluginLogLevel {
        guard let logLevel = table.log_level else { return .trace }
        return PluginLogLevel(rawValue: logLevel(table.host_context)) ?? .trace
    }

    func now() -> Date {
        guard let nowMs = table.now_ms else { return Date() }
        return Date(timeIntervalSince1970: Double(nowMs(table.host_context)) / 1000)
    }
}

/// Holds a continuation across the C boundary; released by the completion.
private final class DataContinuationBox {
    let continuation: CheckedContinuation<Data, Never>

    init(_ continuation: CheckedContinuation<Data, Never>) {
        self.continuation = continuation
    }
}

/// The completion the plugin hands to `http_send`.
private let hostReplied: sy_completion_fn = { context, json, length in
    guard let context else { return }
    let box = Unmanaged<DataContinuationBox>.fromOpaque(context).takeRetainedValue()
    let data = json.map { Data(bytes: $0, count: length) } ?? Data()
    box.continuation.resume(returning: data)
}
