#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `Encoder` behind ``CompactJSONEncoder``: appends each value's JSON to ``bytes`` as it is encoded.
///
/// Containers stay open on a stack until their value's `encode(to:)` returns or their parent writes its
/// next element, so nested containers need no buffer of their own. Anything it cannot write in order sets
/// ``unsupported``; the caller then encodes with `JSONEncoder` instead.
final class JSONStreamWriter: Encoder {
    enum Container {
        case object(first: Bool)
        case array(first: Bool)
    }

    /// What the writer changes as it goes. It lives behind a pointer: a class's stored properties would be
    /// checked for exclusive access at run time on every byte appended.
    struct State {
        var bytes: [UInt8] = []
        /// Set when the value asked for something written out of order; `bytes` are then not to be used.
        var unsupported = false
        /// The open containers, innermost last.
        var open: [Container] = []
        /// The depth of `open` at which the value being encoded started.
        var valueBase = 0
        /// Whether the value being encoded wrote anything yet (a container or a scalar).
        var valueWritten = false
    }

    private let state: UnsafeMutablePointer<State>
    let dates: CompactJSONEncoder.DateStyle
    let escapesSlashes: Bool

    var bytes: [UInt8] { state.pointee.bytes }
    var unsupported: Bool {
        get { state.pointee.unsupported }
        set { state.pointee.unsupported = newValue }
    }
    private var open: [Container] {
        get { state.pointee.open }
        _modify { yield &state.pointee.open }
    }
    private var valueBase: Int {
        get { state.pointee.valueBase }
        set { state.pointee.valueBase = newValue }
    }
    private var valueWritten: Bool {
        get { state.pointee.valueWritten }
        set { state.pointee.valueWritten = newValue }
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(dates: CompactJSONEncoder.DateStyle, escapesSlashes: Bool) {
        self.dates = dates
        self.escapesSlashes = escapesSlashes
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        state.pointee.bytes.reserveCapacity(512)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Writes one whole JSON value at the current position.
    func write<T: Encodable>(_ value: T) throws {
        if writeScalar(value) { return }
        if let dictionary = value as? any StringKeyedJSONObject {
            try dictionary.writeSorted(into: self)
            return
        }
        let saved = (valueBase, valueWritten)
        valueBase = open.count
        valueWritten = false
        defer { (valueBase, valueWritten) = saved }
        try value.encode(to: self)
        close(above: valueBase)
        if !valueWritten {
            // `JSONEncoder` writes a value that encoded nothing as an empty object.
            append("{}")
        }
    }

    /// Writes `dictionary` with its keys in the byte order of their UTF-8.
    func writeSorted<Value: Encodable>(_ dictionary: [String: Value]) throws {
        state.pointee.bytes.append(UInt8(ascii: "{"))
        let keys = dictionary.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for (index, key) in keys.enumerated() {
            if index > 0 { state.pointee.bytes.append(UInt8(ascii: ",")) }
            writeString(key)
            state.pointee.bytes.append(UInt8(ascii: ":"))
            try write(dictionary[key]!)
        }
        state.pointee.bytes.append(UInt8(ascii: "}"))
    }

    func append(_ text: StaticString) {
        text.withUTF8Buffer { state.pointee.bytes.append(contentsOf: $0) }
    }

    func appendBytes(_ text: some Sequence<UInt8>) {
        state.pointee.bytes.append(contentsOf: text)
    }

    func appendByte(_ byte: UInt8) {
        state.pointee.bytes.append(byte)
    }

    // MARK: - Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if valueWritten {
            // A second request for the value's own object continues it; anything else is out of order.
            if open.count == valueBase + 1, case .object = open[valueBase] {
                return KeyedEncodingContainer(JSONKeyedWriter<Key>(writer: self, depth: valueBase + 1))
            }
            unsupported = true
        }
        return KeyedEncodingContainer(JSONKeyedWriter<Key>(writer: self, depth: openContainer(.object(first: true))))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if valueWritten {
            if open.count == valueBase + 1, case .array = open[valueBase] {
                return JSONUnkeyedWriter(writer: self, depth: valueBase + 1)
            }
            unsupported = true
        }
        return JSONUnkeyedWriter(writer: self, depth: openContainer(.array(first: true)))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueWriter(writer: self)
    }

    /// Opens a container for the value being encoded; returns its depth.
    private func openContainer(_ container: Container) -> Int {
        valueWritten = true
        return openNested(container)
    }

    /// Opens a container at the current position; returns its depth.
    func openNested(_ container: Container) -> Int {
        if case .object = container {
            state.pointee.bytes.append(UInt8(ascii: "{"))
        } else {
            state.pointee.bytes.append(UInt8(ascii: "["))
        }
        open.append(container)
        return open.count
    }

    /// Closes every container deeper than `depth`.
    func close(above depth: Int) {
        while open.count > depth {
            if case .object = open.removeLast() {
                state.pointee.bytes.append(UInt8(ascii: "}"))
            } else {
                state.pointee.bytes.append(UInt8(ascii: "]"))
            }
        }
    }

    /// Makes the container at `depth` ready for its next element: closes what its last element left open
    /// and writes the separator. False (and ``unsupported``) when that container was closed already.
    func nextElement(at depth: Int) -> Bool {
        guard depth >= 1, open.count >= depth else {
            unsupported = true
            return false
        }
        close(above: depth)
        switch open[depth - 1] {
        case .object(let first):
            if !first { state.pointee.bytes.append(UInt8(ascii: ",")) }
            open[depth - 1] = .object(first: false)
        case .array(let first):
            if !first { state.pointee.bytes.append(UInt8(ascii: ",")) }
            open[depth - 1] = .array(first: false)
        }
        return true
    }

    /// Writes `key` and its colon as the next element of the object at `depth`.
    func nextKey(_ key: some CodingKey, at depth: Int) -> Bool {
        guard nextElement(at: depth) else { return false }
        writeString(key.stringValue)
        state.pointee.bytes.append(UInt8(ascii: ":"))
        return true
    }

    /// Records that a single-value container wrote the value being encoded; false when it had.
    func claimSingleValue() -> Bool {
        if valueWritten {
            unsupported = true
            return false
        }
        valueWritten = true
        return true
    }

    /// A container's `superEncoder`: not written in order, so the value goes to `JSONEncoder`.
    func refuseSuperEncoder() -> any Encoder {
        unsupported = true
        return self
    }
}

/// A `[String: Value]`, written with sorted keys.
protocol StringKeyedJSONObject {
    func writeSorted(into writer: JSONStreamWriter) throws
}

extension Dictionary: StringKeyedJSONObject where Key == String, Value: Encodable {
    func writeSorted(into writer: JSONStreamWriter) throws {
        try writer.writeSorted(self)
    }
}
