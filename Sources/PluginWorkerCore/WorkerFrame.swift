#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One message between the server and a plugin worker process.
///
/// Server to worker: ``invoke(id:method:clockMs:request:)``, ``cancel(id:)`` and
/// ``sendResult(id:clockMs:result:)``. Worker to server: ``ready``, ``failed(reason:)``,
/// ``reply(id:json:)``, ``send(id:request:)`` and ``log(level:message:metadata:)``. The plugin ABI's JSON
/// (requests, replies, outbound requests and results) travels as the frame's raw payload: it is never
/// decoded or encoded again on the way.
///
/// The server's frames that resume plugin work carry its clock (`clockMs`, milliseconds since the Unix
/// epoch), so the worker answers `now_ms` without asking.
///
/// A frame on the wire (`WorkerFrame+Codec.swift`) is a 4-byte big-endian length of the rest, then a
/// fixed 21-byte header (kind, id, value, label length), the label and the payload.
package enum WorkerFrame: Sendable, Equatable {
    /// Server: start the call `id` of the flow `method` with the plugin's request JSON.
    case invoke(id: UInt64, method: String, clockMs: Int64, request: Data)
    /// Worker: the plugin's reply JSON for the call `id`.
    case reply(id: UInt64, json: Data)
    /// Server: ask the plugin to stop the call `id`.
    case cancel(id: UInt64)
    /// Worker: the plugin's outbound request JSON; the result comes back under the same `id`.
    case send(id: UInt64, request: Data)
    /// Server: the outbound result JSON of the send `id`.
    case sendResult(id: UInt64, clockMs: Int64, result: Data)
    /// Worker: one log line of the plugin; `metadata` is its flat JSON object, if any (never empty).
    case log(level: Int32, message: String, metadata: String?)
    /// Worker: the plugin's instance exists; calls may come.
    case ready
    /// Worker: the plugin could not be opened or created.
    case failed(reason: String)

    /// The largest frame either side accepts (without its length prefix); a longer one ends the connection.
    package static let maximumBytes = 16 << 20

    /// The byte naming each kind of frame on the wire.
    package enum Kind: UInt8, Sendable {
        case ready = 1
        case failed = 2
        case invoke = 3
        case reply = 4
        case cancel = 5
        case send = 6
        case sendResult = 7
        case log = 8
    }

    /// The frame's kind.
    package var kind: Kind {
        switch self {
        case .invoke: .invoke
        case .reply: .reply
        case .cancel: .cancel
        case .send: .send
        case .sendResult: .sendResult
        case .log: .log
        case .ready: .ready
        case .failed: .failed
        }
    }
}

/// Why bytes are not a ``WorkerFrame``. The connection that carried them ends.
package enum WorkerFrameError: Error, Equatable, Sendable {
    /// Fewer bytes than the header or the label length says.
    case truncated
    /// More than ``WorkerFrame/maximumBytes``.
    case oversized(Int)
    /// A kind byte no frame has.
    case unknownKind(UInt8)
    /// A method, message, metadata or reason that is not UTF-8, or fields a kind does not have.
    case malformed
}
