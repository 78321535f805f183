#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `Decoder` of ``CompactJSONDecoder``: a cursor over a ``JSONTape``.
///
/// A value it cannot read exactly as `JSONDecoder` would sets ``unsupported`` before it throws, so the
/// caller hands the document to `JSONDecoder` even when the value's own `init(from:)` caught the error.
final class JSONTapeDecoder: Decoder, SingleValueDecodingContainer {
    let tape: JSONTape
    let dates: CompactJSONDecoder.DateStyle
    /// Set when something was read that only `JSONDecoder` reads exactly.
    private(set) var unsupported = false
    /// The node being decoded.
    private var node = 0
    /// The members of each large object read so far, by key: found in one lookup, not a scan.
    private var indexes: [Int: [String: Int]] = [:]
    private(set) var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(tape: JSONTape, dates: CompactJSONDecoder.DateStyle) {
        self.tape = tape
        self.dates = dates
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try keyed(Key.self, at: node, path: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyed(at: node, path: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The keyed container of the object at `node`.
    func keyed<Key: CodingKey>(_: Key.Type, at node: Int, path: [any CodingKey]) throws -> JSONTapeKeyedContainer<Key> {
        guard tape.nodes[node].kind == .object else {
            throw mismatch([String: Any].self, at: node, path: path)
        }
        return JSONTapeKeyedContainer(decoder: self, object: node, codingPath: path)
    }

    /// The unkeyed container of the array at `node`.
    func unkeyed(at node: Int, path: [any CodingKey]) throws -> JSONTapeUnkeyedContainer {
        guard tape.nodes[node].kind == .array else {
            throw mismatch([Any].self, at: node, path: path)
        }
        return JSONTapeUnkeyedContainer(decoder: self, array: node, codingPath: path)
    }

    /// Decodes the value at `node`, reached through `key` from a container at `parent`.
    func unwrap<T: Decodable>(_ type: T.Type, at node: Int, parent: [any CodingKey], key: (any CodingKey)?) throws -> T
    {
        // The scalars are read directly; the types `JSONDecoder` treats in its own way as it does.
        if T.self == String.self { return try string(at: node, parent: parent, key: key) as! T }
        if T.self == Int.self { return try integer(Int.self, at: node, parent: parent, key: key) as! T }
        if T.self == Int64.self { return try integer(Int64.self, at: node, parent: parent, key: key) as! T }
        if T.self == Bool.self { return try bool(at: node, parent: parent, key: key) as! T }
        if T.self == Double.self { return try double(at: node, parent: parent, key: key) as! T }
        if T.self == Date.self, dates == .secondsSince1970 {
            return Date(timeIntervalSince1970: try double(at: node, parent: parent, key: key)) as! T
        }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try string(at: node, parent: parent, key: key)) else {
                throw decline("Base64 data", parent: parent, key: key)
            }
            return data as! T
        }
        if T.self == Float.self || T.self == Decimal.self || T.self == URL.self {
            throw decline("\(T.self)", parent: parent, key: key)
        }
        let (savedNode, savedPath) = (self.node, codingPath)
        self.node = node
        if let key { codingPath = parent + [key] }
        defer { (self.node, codingPath) = (savedNode, savedPath) }
        return try T(from: self)
    }

    /// The node of the value of the member `name` of the object at `object`, if it has one.
    ///
    /// A small object is scanned, comparing each key's bytes; a large one is indexed the first time, so that
    /// decoding all its members (a dictionary's) stays linear.
    func member(_ name: String, of object: Int) -> Int? {
        let end = tape.nodes[object].next
        guard tape.nodes[object].count > Self.scannedMembers else {
            var member = object + 1
            while member < end {
                if tape.string(at: member, equals: name) { return member + 1 }
                member = tape.nodes[member + 1].next
            }
            return nil
        }
        if let index = indexes[object] { return index[name] }
        var index: [String: Int] = [:]
        index.reserveCapacity(tape.nodes[object].count)
        var member = object + 1
        while member < end {
            // A key that is not UTF-8 declines the document, so no repaired key can match.
            guard let key = try? string(at: member, parent: codingPath, key: nil) else { return nil }
            index[key] = member + 1
            member = tape.nodes[member + 1].next
        }
        indexes[object] = index
        return index[name]
    }

    /// The most members an object has for its keys to be scanned rather than indexed.
    static let scannedMembers = 16

    // MARK: The single value container (the node being decoded)

    func decodeNil() -> Bool { tape.nodes[node].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: node, parent: codingPath, key: nil) }
    func decode(_ type: String.Type) throws -> String { try string(at: node, parent: codingPath, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try double(at: node, parent: codingPath, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { throw decline("Float", parent: codingPath, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self, at: node, parent: codingPath, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self, at: node, parent: codingPath, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self, at: node, parent: codingPath, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self, at: node, parent: codingPath, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self, at: node, parent: codingPath, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self, at: node, parent: codingPath, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self, at: node, parent: codingPath, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try integer(UInt16.self, at: node, parent: codingPath, key: nil)
    }
    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try integer(UInt32.self, at: node, parent: codingPath, key: nil)
    }
    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try integer(UInt64.self, at: node, parent: codingPath, key: nil)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try unwrap(type, at: node, parent: codingPath, key: nil)
    }

    // MARK: Scalars

    func bool(at node: Int, parent: [any CodingKey], key: (any CodingKey)?) throws -> Bool {
        switch tape.nodes[node].kind {
        case .true: true
        case .false: false
        default: throw mismatch(Bool.self, at: node, parent: parent, key: key)
        }
    }

    func string(at node: Int, parent: [any CodingKey], key: (any CodingKey)?) throws -> String {
        let item = tape.nodes[node]
        switch item.kind {
        case .string:
            let text = tape.bytes.withUnsafeBufferPointer { all in
                let bytes = UnsafeBufferPointer(rebasing: all[item.start..<item.end])
                // ASCII is UTF-8 as it stands; otherwise `String(decoding:)` repairs, so its bytes must be the same.
                let text = String(decoding: bytes, as: UTF8.self)
                return item.count == 0 || text.utf8.elementsEqual(bytes) ? text : nil
            }
            guard let text else { throw decline("invalid UTF-8", parent: parent, key: key) }
            return text
        case .escapedString:
            let text = tape.bytes.withUnsafeBytes {
                JSONEscapes.unescaped(UnsafeRawBufferPointer(rebasing: $0[item.start..<item.end]))
            }
            guard let text else {
                throw decline("an escape", parent: parent, key: key)
            }
            return text
        default:
            throw mismatch(String.self, at: node, parent: parent, key: key)
        }
    }

    func double(at node: Int, parent: [any CodingKey], key: (any CodingKey)?) throws -> Double {
        let item = tape.nodes[node]
        guard item.kind == .number else { throw mismatch(Double.self, at: node, parent: parent, key: key) }
        let text = tape.bytes[item.start..<item.end]
        // An integer below 2^53 is exactly that double, as a correctly rounded parse gives it.
        // (`-0` is the negative zero, which no integer is.)
        if let value = Self.integer(Int64.self, text), value.magnitude < 1 << 53,
            value != 0 || text.first != UInt8(ascii: "-")
        {
            return Double(value)
        }
        // JSONDecoder refuses a number beyond the doubles and one that underflows to zero.
        let mantissa = text.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite,
            value != 0 || !mantissa.contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) })
        else {
            throw decline("a number out of range", parent: parent, key: key)
        }
        return value
    }

    func integer<I: FixedWidthInteger>(_: I.Type, at node: Int, parent: [any CodingKey], key: (any CodingKey)?) throws
        -> I
    {
        let item = tape.nodes[node]
        guard item.kind == .number else { throw mismatch(I.self, at: node, parent: parent, key: key) }
        let text = tape.bytes[item.start..<item.end]
        if let value = Self.integer(I.self, text) { return value }
        if text.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let value = Double(String(decoding: text, as: UTF8.self)),
            value != value.rounded() || !(Double(I.min)...Double(I.max)).contains(value)
        {
            // A fraction, or out of the type's range: no such integer, as JSONDecoder says too.
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: parent + (key.map { [$0] } ?? []), debugDescription: "not an integer")
            )
        }
        throw decline("an integer written with a fraction or exponent, or out of range", parent: parent, key: key)
    }

    /// The integer `text` spells with digits only, if it fits in `I`.
    private static func integer<I: FixedWidthInteger>(_: I.Type, _ text: ArraySlice<UInt8>) -> I? {
        var index = text.startIndex
        let negative = text[index] == UInt8(ascii: "-")
        // `-0` for an unsigned type is left to JSONDecoder.
        if negative && !I.isSigned { return nil }
        if negative { index += 1 }
        guard index < text.endIndex else { return nil }
        var value: I = 0
        while index < text.endIndex {
            let byte = text[index]
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let digit = I(byte - UInt8(ascii: "0"))
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = next
            index += 1
        }
        return value
    }

    // MARK: Errors

    /// The error for a value of the wrong kind: `valueNotFound` for null, `typeMismatch` otherwise.
    func mismatch(_ type: Any.Type, at node: Int, parent: [any CodingKey], key: (any CodingKey)?) -> DecodingError {
        mismatch(type, at: node, path: parent + (key.map { [$0] } ?? []))
    }

    func mismatch(_ type: Any.Type, at node: Int, path: [any CodingKey]) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: path, debugDescription: "a value of another kind")
        return tape.nodes[node].kind == .null
            ? DecodingError.valueNotFound(type, context) : DecodingError.typeMismatch(type, context)
    }

    /// Marks the document for `JSONDecoder` and returns the error to throw.
    func decline(_ what: String, parent: [any CodingKey], key: (any CodingKey)?) -> DecodingError {
        unsupported = true
        return DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: parent + (key.map { [$0] } ?? []), debugDescription: "\(what): read by JSONDecoder"))
    }
}
