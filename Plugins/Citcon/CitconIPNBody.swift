#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// Reads an IPN body into ordered key/value pairs, as the sign rule needs them.
///
/// Citcon posts `application/x-www-form-urlencoded` (percent-decoding, `+` as a space); a flat JSON
/// object is accepted too, its values taken as they appear: strings unescaped, numbers and booleans as
/// written, `null` as an empty value, nested objects and arrays as their JSON text.
enum CitconIPNBody {
    /// Parses by the content type, or by the first non-blank byte when the type says neither.
    /// Returns `nil` for a malformed body.
    static func parse(_ body: Data, contentType: String?) -> [(key: String, value: String)]? {
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") { return parseJSON(body) }
        if type.contains("x-www-form-urlencoded") { return parseForm(body) }
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") ? parseJSON(body) : parseForm(body)
    }

    /// `k1=v1&k2=v2…` with percent-decoding and `+` as a space; a key without `=` has an empty value.
    static func parseForm(_ body: Data) -> [(key: String, value: String)]? {
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        return FormEncoding.pairs(text)
    }

    /// A flat JSON object, values as they appear.
    static func parseJSON(_ body: Data) -> [(key: String, value: String)]? {
        var scanner = CitconJSONScanner(bytes: Array(body))
        return scanner.topLevelObject()
    }
}

/// A small JSON reader that keeps each top-level value's text as written.
struct CitconJSONScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The members of the top-level object, in order; `nil` if the text is not one JSON object.
    mutating func topLevelObject() -> [(key: String, value: String)]? {
        skipBlanks()
        guard take(UInt8(ascii: "{")) else { return nil }
        var pairs: [(key: String, value: String)] = []
        skipBlanks()
        if take(UInt8(ascii: "}")) { return finished() ? pairs : nil }
        while true {
            skipBlanks()
            guard let key = string() else { return nil }
            skipBlanks()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipBlanks()
            guard let value = value() else { return nil }
            pairs.append((key: key, value: value))
            skipBlanks()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            return finished() ? pairs : nil
        }
    }

    /// A value's text: a string unescaped, `null` empty, anything else as written.
    private mutating func value() -> String? {
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "\"") { return string() }
        let start = index
        guard skipValue() else { return nil }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        return text == "null" ? "" : text
    }

    /// Moves past a non-string value (number, literal, object or array), strings inside included.
    private mutating func skipValue() -> Bool {
        var depth = 0
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard string() != nil else { return false }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return index > start }
                depth -= 1
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { return index > start }
            default:
                break
            }
            index += 1
        }
        return false
    }

    /// A JSON string at the cursor, escapes decoded.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let scalar = escape() else { return nil }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default:
                guard byte >= 0x20 else { return nil }
                out.append(byte)
            }
        }
        return nil
    }

    /// The character an escape stands for (the backslash already read).
    private mutating func escape() -> Unicode.Scalar? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let high = hex4() else { return nil }
            guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(),
                (0xDC00...0xDFFF).contains(low)
            else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        default: return nil
        }
    }

    /// Four hex digits as a number.
    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        let text = String(decoding: bytes[index..<index + 4], as: UTF8.self)
        guard text.allSatisfy(\.isHexDigit), let value = UInt32(text, radix: 16) else { return nil }
        index += 4
        return value
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipBlanks() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func finished() -> Bool {
        skipBlanks()
        return index == bytes.count
    }
}
