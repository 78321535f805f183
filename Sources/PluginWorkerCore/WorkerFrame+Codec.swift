#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The binary layout of a ``WorkerFrame``, all integers big-endian:
///
/// ```
/// length   u32   bytes after this field (at most WorkerFrame.maximumBytes)
/// kind     u8    WorkerFrame.Kind
/// id       u64   call id (invoke, reply, cancel) or send id (send, sendResult); 0 otherwise
/// value    i64   server clock in ms (invoke, sendResult), log level (log); 0 otherwise
/// labelLen u32   length of the label
/// label          method (invoke) or metadata JSON (log); empty otherwise
/// payload        the rest: request, reply, outbound request or result JSON, log message, failure reason
/// ```
extension WorkerFrame {
    /// Bytes of the fixed header after the length prefix.
    package static let headerBytes = 21
    /// Bytes of the length prefix.
    package static let prefixBytes = 4

    /// The frame without its length prefix (what `LengthFieldPrepender` frames).
    ///
    /// - Throws: ``WorkerFrameError/oversized(_:)`` past ``maximumBytes``.
    package func encoded() throws(WorkerFrameError) -> [UInt8] {
        let (value, label, payload) = parts
        let length = Self.headerBytes + label.count + payload.count
        guard length <= Self.maximumBytes else { throw .oversized(length) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerBytes + label.count + payload.count)
        appendBody(to: &bytes, value: value, label: label, payload: payload)
        return bytes
    }

    /// The frame with its length prefix, ready to write to a stream.
    ///
    /// - Throws: ``WorkerFrameError/oversized(_:)`` past ``maximumBytes``.
    package func framed() throws(WorkerFrameError) -> [UInt8] {
        let (value, label, payload) = parts
        let length = Self.headerBytes + label.count + payload.count
        guard length <= Self.maximumBytes else { throw .oversized(length) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.prefixBytes + length)
        Self.append(UInt32(length), to: &bytes)
        appendBody(to: &bytes, value: value, label: label, payload: payload)
        return bytes
    }

    /// Reads one frame from `body`, the bytes after the length prefix.
    package static func decode(_ body: UnsafeRawBufferPointer) throws(WorkerFrameError) -> WorkerFrame {
        guard body.count <= maximumBytes else { throw .oversized(body.count) }
        guard body.count >= headerBytes else { throw .truncated }
        guard let kind = Kind(rawValue: body[0]) else { throw .unknownKind(body[0]) }
        let id = readInteger(body, at: 1, as: UInt64.self)
        let value = Int64(bitPattern: readInteger(body, at: 9, as: UInt64.self))
        let labelLength = Int(readInteger(body, at: 17, as: UInt32.self))
        guard labelLength <= body.count - headerBytes else { throw .truncated }
        let label = UnsafeRawBufferPointer(rebasing: body[headerBytes..<(headerBytes + labelLength)])
        let payload = UnsafeRawBufferPointer(rebasing: body[(headerBytes + labelLength)...])
        switch kind {
        case .invoke:
            return .invoke(id: id, method: try text(label), clockMs: value, request: Data(payload))
        case .reply:
            try expectEmpty(label)
            return .reply(id: id, json: Data(payload))
        case .cancel:
            try expectEmpty(label, payload)
            return .cancel(id: id)
        case .send:
            try expectEmpty(label)
            return .send(id: id, request: Data(payload))
        case .sendResult:
            try expectEmpty(label)
            return .sendResult(id: id, clockMs: value, result: Data(payload))
        case .log:
            guard let level = Int32(exactly: value) else { throw .malformed }
            let metadata = label.isEmpty ? nil : try text(label)
            return .log(level: level, message: try text(payload), metadata: metadata)
        case .ready:
            try expectEmpty(label, payload)
            return .ready
        case .failed:
            try expectEmpty(label)
            return .failed(reason: try text(payload))
        }
    }

    /// Reads one frame from `body`, the bytes after the length prefix.
    package static func decode(_ body: [UInt8]) throws(WorkerFrameError) -> WorkerFrame {
        let result = body.withUnsafeBytes { raw in Result { () throws(WorkerFrameError) in try decode(raw) } }
        return try result.get()
    }

    /// The value, label and payload of this frame.
    private var parts: (Int64, Data, Data) {
        switch self {
        case .invoke(_, let method, let clockMs, let request): (clockMs, Data(method.utf8), request)
        case .reply(_, let json): (0, Data(), json)
        case .cancel: (0, Data(), Data())
        case .send(_, let request): (0, Data(), request)
        case .sendResult(_, let clockMs, let result): (clockMs, Data(), result)
        case .log(let level, let message, let metadata): (Int64(level), Data((metadata ?? "").utf8), Data(message.utf8))
        case .ready: (0, Data(), Data())
        case .failed(let reason): (0, Data(), Data(reason.utf8))
        }
    }

    private var id: UInt64 {
        switch self {
        case .invoke(let id, _, _, _), .reply(let id, _), .cancel(let id), .send(let id, _),
            .sendResult(let id, _, _):
            id
        case .log, .ready, .failed: 0
        }
    }

    private func appendBody(to bytes: inout [UInt8], value: Int64, label: Data, payload: Data) {
        bytes.append(kind.rawValue)
        Self.append(id, to: &bytes)
        Self.append(UInt64(bitPattern: value), to: &bytes)
        Self.append(UInt32(label.count), to: &bytes)
        bytes.append(contentsOf: label)
        bytes.append(contentsOf: payload)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private static func readInteger<T: FixedWidthInteger>(_ raw: UnsafeRawBufferPointer, at offset: Int, as: T.Type)
        -> T
    {
        T(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    private static func text(_ raw: UnsafeRawBufferPointer) throws(WorkerFrameError) -> String {
        guard let string = String(validating: raw, as: UTF8.self) else { throw .malformed }
        return string
    }

    private static func expectEmpty(_ parts: UnsafeRawBufferPointer...) throws(WorkerFrameError) {
        guard parts.allSatisfy(\.isEmpty) else { throw .malformed }
    }
}
