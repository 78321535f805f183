#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An object of a ``JSONStreamWriter``: each key writes its value in place.
struct JSONKeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONStreamWriter
    /// The object's place on the writer's stack of open containers.
    let depth: Int

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        if writer.nextKey(key, at: depth) { writer.append("null") }
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        if writer.nextKey(key, at: depth) { writer.writeString(value) }
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if writer.nextKey(key, at: depth) { writer.append(value ? "true" : "false") }
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        if writer.nextKey(key, at: depth) { writer.writeInteger(Int64(value)) }
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        if writer.nextKey(key, at: depth) { writer.writeInteger(value) }
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        if writer.nextKey(key, at: depth) { writer.writeDouble(value) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if writer.nextKey(key, at: depth) { try writer.write(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        _ = writer.nextKey(key, at: depth)
        return KeyedEncodingContainer(
            JSONKeyedWriter<NestedKey>(writer: writer, depth: writer.openNested(.object(first: true))))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        _ = writer.nextKey(key, at: depth)
        return JSONUnkeyedWriter(writer: writer, depth: writer.openNested(.array(first: true)))
    }

    mutating func superEncoder() -> any Encoder { writer.refuseSuperEncoder() }

    mutating func superEncoder(forKey key: Key) -> any Encoder { writer.refuseSuperEncoder() }
}

/// An array of a ``JSONStreamWriter``.
struct JSONUnkeyedWriter: UnkeyedEncodingContainer {
    let writer: JSONStreamWriter
    let depth: Int
    private(set) var count = 0

    init(writer: JSONStreamWriter, depth: Int) {
        self.writer = writer
        self.depth = depth
    }

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws {
        count += 1
        if writer.nextElement(at: depth) { writer.append("null") }
    }

    mutating func encode(_ value: String) throws {
        count += 1
        if writer.nextElement(at: depth) { writer.writeString(value) }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        count += 1
        if writer.nextElement(at: depth) { try writer.write(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        count += 1
        _ = writer.nextElement(at: depth)
        return KeyedEncodingContainer(
            JSONKeyedWriter<NestedKey>(writer: writer, depth: writer.openNested(.object(first: true))))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        _ = writer.nextElement(at: depth)
        return JSONUnkeyedWriter(writer: writer, depth: writer.openNested(.array(first: true)))
    }

    mutating func superEncoder() -> any Encoder { writer.refuseSuperEncoder() }
}

/// The one value of a ``JSONStreamWriter``'s current value.
struct JSONSingleValueWriter: SingleValueEncodingContainer {
    let writer: JSONStreamWriter

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws {
        if writer.claimSingleValue() { writer.append("null") }
    }

    mutating func encode(_ value: String) throws {
        if writer.claimSingleValue() { writer.writeString(value) }
    }

    mutating func encode(_ value: Bool) throws {
        if writer.claimSingleValue() { writer.append(value ? "true" : "false") }
    }

    mutating func encode(_ value: Int64) throws {
        if writer.claimSingleValue() { writer.writeInteger(value) }
    }

    mutating func encode(_ value: Double) throws {
        if writer.claimSingleValue() { writer.writeDouble(value) }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if writer.claimSingleValue() { try writer.write(value) }
    }
}
