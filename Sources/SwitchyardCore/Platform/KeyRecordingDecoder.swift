import Foundation
import ProviderKit

/// The keys each object of a JSON document was asked for while a type decoded it, and how the decoding
/// reads what `JSONDecoder`'s options decide.
final class KeyRecorder {
    /// Object path (``UnknownKeys/render(_:)``) → the keys a decoder asked that object for.
    var asked: [String: Set<String>] = [:]
    /// Objects read as a whole (a dictionary's `allKeys`): every key in them is known.
    var wholeObjects: Set<String> = []
    /// What the decoders hand the types they decode.
    let userInfo: [CodingUserInfoKey: Any]
    /// Dates are ISO 8601 text only, as `JSONDecoder`'s `.iso8601` strategy reads them; else ISO 8601 text
    /// or seconds since 2001.
    let iso8601Dates: Bool

    init(userInfo: [CodingUserInfoKey: Any] = [:], iso8601Dates: Bool = false) {
        self.userInfo = userInfo
        self.iso8601Dates = iso8601Dates
    }

    func ask(_ key: String, at path: [any CodingKey]) {
        asked[UnknownKeys.render(path), default: []].insert(key)
    }
}

/// A `Decoder` over a parsed JSON document that decodes as `JSONDecoder` does (without a key strategy),
/// with its errors, and records, in a ``KeyRecorder``, every key a type asks an object for.
struct KeyRecordingDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let recorder: KeyRecorder
    var userInfo: [CodingUserInfoKey: Any] { recorder.userInfo }

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
            guard case .string(let text) = value else { throw mismatch(type) }
            guard let url = URL(string: text) else { throw corrupted("Invalid URL string.") }
            return url as! T
        }
        if T.self == Date.self {
            // As the API's decoders read dates: ISO 8601 text (also seconds since 2001 for a number, unless
            // dates are ISO 8601 only).
            switch value {
            case .string(let text):
                guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                    throw corrupted("Expected date string to be ISO8601-formatted.")
                }
                return date as! T
            case .number(let seconds) where !recorder.iso8601Dates:
                return Date(timeIntervalSinceReferenceDate: seconds) as! T
            case .integer(let seconds) where !recorder.iso8601Dates:
                return Date(timeIntervalSinceReferenceDate: Double(seconds)) as! T
            default: throw mismatch(recorder.iso8601Dates ? String.self : type)
            }
        }
        if let integer = T.self as? any FixedWidthInteger.Type {
            switch value {
            case .integer, .number:
                // A number the type cannot hold is corrupt, as `JSONDecoder` says, not of the wrong type.
                guard let whole = value.integerValue, let converted = integer.init(exactly: whole) else {
                    throw corrupted("Parsed JSON number does not fit in \(type).")
                }
                return converted as! T
            default: throw mismatch(type)
            }
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

    func corrupted(_ description: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description))
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
