import Foundation
import ProviderKit

/// An object's container: every key asked for is recorded, present or not.
struct KeyRecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let decoder: KeyRecordingDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        decoder.recorder.wholeObjects.insert(UnknownKeys.render(codingPath))
        return members.keys.compactMap(Key.init(stringValue:))
    }

    func contains(_ key: Key) -> Bool {
        decoder.recorder.ask(key.stringValue, at: codingPath)
        return members[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try member(key) == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(try member(key), at: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try member(key), at: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(try member(key), at: key)
    }

    /// The member at `key` (recorded as asked for); missing is `keyNotFound`, as with `JSONDecoder`.
    private func member(_ key: Key) throws -> JSONValue {
        guard contains(key), let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no \(key.stringValue)"))
        }
        return value
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.child(try member(key), at: key).unbox(type)
    }
}

/// An array's container.
struct KeyRecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: KeyRecordingDecoder
    private(set) var currentIndex = 0

    init(elements: [JSONValue], decoder: KeyRecordingDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard try element().value == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try element().container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try element().unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let element = try element()
        currentIndex += 1
        return element
    }

    /// The decoder of the element at ``currentIndex``.
    private func element() throws -> KeyRecordingDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self, DecodingError.Context(codingPath: codingPath, debugDescription: "past the end"))
        }
        return decoder.child(elements[currentIndex], at: IndexKey(currentIndex))
    }

    /// The element at ``currentIndex`` as a `T`, moving past it.
    private mutating func next<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try element().unbox(type)
        currentIndex += 1
        return value
    }
}

/// A single value's container.
struct KeyRecordingSingleValueContainer: SingleValueDecodingContainer {
    let decoder: KeyRecordingDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.unbox(type) }
    func decode(_ type: String.Type) throws -> String { try decoder.unbox(type) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.unbox(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.unbox(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.unbox(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.unbox(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.unbox(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.unbox(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.unbox(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.unbox(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.unbox(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.unbox(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.unbox(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.unbox(type) }
}
