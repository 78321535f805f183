import Foundation
import ProviderKit

/// The keys each object of a JSON document was asked for while a type decoded it.
final class KeyRecorder {
    /// Object path (``UnknownKeys/render(_:)``) → the keys a decoder asked that object for.
    var asked: [String: Set<String>] = [:]
    /// Objects read as a whole (a dictionary's `allKeys`): every key in them is known.
    var wholeObjects: Set<String> = []

    func ask(_ key: String, at path: [any CodingKey]) {
        asked[UnknownKeys.render(path), default: []].insert(key)
    }
}

/// A `Decoder` over a parsed JSON document that decodes as `JSONDecoder` does (without key or date
/// strategies) and records, in a ``KeyRecorder``, every key a type asks an object for.
///
/// It does not decide what is valid: the document is decoded by `JSONDecoder` first, and this pass only
/// learns which keys the types know.
struct KeyRecordingDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let recorder: KeyRecorder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self) }
        return KeyedDecodingContainer(KeyRecordingKeyedContainer<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self) }
        return KeyRecordingUnkeyedContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        KeyRecordingSingleValueContainer(decoder: self)
    }

    /// The decoder of a member or element of this value.
    func child(_ value: JSONValue, at key: any CodingKey) -> KeyRecordingDecoder {
        KeyRecordingDecoder(value: value, codingPath: codingPath + [key], recorder: recorder)
    }

    /// This value as a `T`: JSON primitives directly, anything else through `T.init(from:)`.
    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Bool.self {
            guard case .bool(let flag) = value else { throw mismatch(type) }
            return flag as! T
        }
        if T.self == String.self {
            guard case .string(let text) = value else { throw mismatch(type) }
            return text as! T
        }
        if T.self == URL.self {
            guard case .string(let text) = value, let url = URL(string: text) else { throw mismatch(type) }
            return url as! T
        }
        if T.self == Date.self {
            // As the API's decoders read dates: ISO 8601 text (seconds since 2001 for a number).
            switch value {
            case .string(let text):
                guard let date = ISO8601DateFormatter().date(from: text) else { throw mismatch(type) }
                return date as! T
            case .number(let seconds): return Date(timeIntervalSinceReferenceDate: seconds) as! T
            case .integer(let seconds): return Date(timeIntervalSinceReferenceDate: Double(seconds)) as! T
            default: throw mismatch(type)
            }
        }
        if let integer = T.self as? any FixedWidthInteger.Type {
            guard let whole = value.integerValue, let converted = integer.init(exactly: whole) else {
                throw mismatch(type)
            }
            return converted as! T
        }
        if let floating = T.self as? any BinaryFloatingPoint.Type {
            switch value {
            case .number(let number): return floating.init(number) as! T
            case .integer(let whole): return floating.init(whole) as! T
            default: throw mismatch(type)
            }
        }
        return try T(from: self)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "found \(value) instead"))
    }
}

/// An array element's position, as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
