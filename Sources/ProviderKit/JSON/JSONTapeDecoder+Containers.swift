#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An object's members, found by comparing each key's bytes with the tape's (objects are small, and the
/// tape has already refused a repeated key).
struct JSONTapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONTapeDecoder
    let object: Int
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        var keys: [Key] = []
        var member = object + 1
        let nodes = decoder.tape.nodes
        while member < nodes[object].next {
            if let text = try? decoder.string(at: member, parent: codingPath, key: nil),
                let key = Key(stringValue: text)
            {
                keys.append(key)
            }
            member = nodes[member + 1].next
        }
        return keys
    }

    /// The node of `key`'s value, if the object has it.
    private func find(_ key: Key) -> Int? {
        decoder.member(key.stringValue, of: object)
    }

    /// The node of `key`'s value, or `keyNotFound`.
    private func value(_ key: Key) throws -> Int {
        guard let node = find(key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for the key"))
        }
        return node
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.tape.nodes[try value(key)].kind == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.bool(at: value(key), parent: codingPath, key: key)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.string(at: value(key), parent: codingPath, key: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.double(at: value(key), parent: codingPath, key: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.unwrap(type, at: value(key), parent: codingPath, key: key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(type, at: value(key), parent: codingPath, key: key)
    }

    // One lookup instead of the default's three (`contains`, `decodeNil`, `decode`).
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { try decoder.string(at: $0, parent: codingPath, key: key) }
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try present(key).map { try decoder.bool(at: $0, parent: codingPath, key: key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try present(key).map { try decoder.integer(type, at: $0, parent: codingPath, key: key) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try present(key).map { try decoder.integer(type, at: $0, parent: codingPath, key: key) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { try decoder.double(at: $0, parent: codingPath, key: key) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key).map { try decoder.unwrap(type, at: $0, parent: codingPath, key: key) }
    }

    /// The node of `key`'s value unless it is absent or null.
    private func present(_ key: Key) -> Int? {
        guard let node = find(key), decoder.tape.nodes[node].kind != .null else { return nil }
        return node
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I {
        try decoder.integer(type, at: value(key), parent: codingPath, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(try decoder.keyed(type, at: value(key), path: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyed(at: value(key), path: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder {
        throw decoder.decline("a superDecoder", parent: codingPath, key: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw decoder.decline("a superDecoder", parent: codingPath, key: key)
    }
}

/// An array's elements in turn.
struct JSONTapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: JSONTapeDecoder
    let array: Int
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0
    /// The node of the element at `currentIndex`.
    private var element: Int

    init(decoder: JSONTapeDecoder, array: Int, codingPath: [any CodingKey]) {
        self.decoder = decoder
        self.array = array
        self.codingPath = codingPath
        self.element = array + 1
    }

    var count: Int? { decoder.tape.nodes[array].count }
    var isAtEnd: Bool { currentIndex >= decoder.tape.nodes[array].count }

    /// The index of the element being read, as a key of the coding path.
    private var key: IndexKey { IndexKey(intValue: currentIndex) }

    /// The node of the next element, or `valueNotFound` at the end.
    private func next(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "the array is at its end")
            )
        }
        return element
    }

    private mutating func advance() {
        element = decoder.tape.nodes[element].next
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.tape.nodes[try next(Never.self)].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try decoder.string(at: next(type), parent: codingPath, key: key)
        advance()
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.unwrap(type, at: next(type), parent: codingPath, key: key)
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try decoder.keyed(type, at: next(type), path: codingPath + [key])
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.unkeyed(at: next([Any].self), path: codingPath + [key])
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        throw decoder.decline("a superDecoder", parent: codingPath, key: key)
    }

    /// An array index in a coding path.
    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }
}
