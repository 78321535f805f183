#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the relay's small fixed JSON shapes (``OutboundRequest``, ``OutboundResult``) in one pass over the
/// bytes, without `Codable`'s containers.
///
/// It accepts a strict subset of JSON: the objects' known keys, each once, with values of the expected
/// kinds; integers without fraction or exponent; strings with JSON's escapes. Anything outside that subset
/// makes the read fail (`nil`), and the caller decodes with `JSONDecoder` instead, so a document means
/// what `JSONDecoder` says it means whichever path read it.
package struct RelayJSONReader {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Runs `read` over `data`; nil unless it succeeds and only whitespace follows.
    static func read<T>(_ data: Data, _ read: (inout RelayJSONReader) -> T?) -> T? {
        data.withUnsafeBytes { raw in
            var reader = RelayJSONReader(raw)
            guard let value = read(&reader) else { return nil }
            reader.skipWhitespace()
            return reader.index == raw.count ? value : nil
        }
    }

    /// Reads an object, handing each key to `field`, which reads the value and returns false to give up.
    /// Fails on a repeated key.
    mutating func object(_ field: (inout RelayJSONReader, String) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        // The shapes have a handful of keys: a short array finds a repeated one without hashing.
        var seen: [String] = []
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), !seen.contains(key), consume(UInt8(ascii: ":")), field(&self, key)
            else { return false }
            seen.append(key)
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    /// Reads an array, calling `element` for each item; false gives up.
    mutating func array(_ element: (inout RelayJSONReader) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "[")) else { return false }
        if consume(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&self) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]"))
    }

    /// Reads `null`.
    mutating func null() -> Bool {
        skipWhitespace()
        guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// Whether the next value is `null` (without reading it).
    mutating func nextIsNull() -> Bool {
        skipWhitespace()
        return index < bytes.count && bytes[index] == UInt8(ascii: "n")
    }

    /// Reads an integer written without fraction or exponent that fits in `Int`.
    mutating func integer() -> Int? {
        skipWhitespace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var value = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let digit = Int(bytes[index] - UInt8(ascii: "0"))
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = next
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // A fraction or an exponent is left to JSONDecoder.
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            return nil
        }
        return value
    }

    /// Reads a string, unescaping JSON's escapes; nil for a raw control character, a bad escape or invalid
    /// UTF-8.
    mutating func string() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        // The common case: no escape, one copy.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = Self.text(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            index += 1
        }
        var unescaped = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return Self.text(unescaped)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escape)
                case UInt8(ascii: "b"): unescaped.append(0x08)
                case UInt8(ascii: "f"): unescaped.append(0x0C)
                case UInt8(ascii: "n"): unescaped.append(0x0A)
                case UInt8(ascii: "r"): unescaped.append(0x0D)
                case UInt8(ascii: "t"): unescaped.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    unescaped.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0..<0x20:
                return nil
            default:
                unescaped.append(byte)
            }
        }
        return nil
    }

    /// `bytes` as a string; nil when they are not valid UTF-8.
    private static func text(_ bytes: some Collection<UInt8>) -> String? {
        if #available(macOS 15, *) { return String(validating: bytes, as: UTF8.self) }
        // String(decoding:) repairs invalid UTF-8, so a repaired text no longer has the same bytes.
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// The scalar of a `\uXXXX` escape (its `\u` read), a surrogate pair taking two; nil for a lone surrogate.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        if (0xD800...0xDBFF).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return nil }
            index += 2
            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexDigit(bytes[index]) else { return nil }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// The value of a hexadecimal digit (either case), or nil.
    package static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Skips whitespace, then takes `byte` if it comes next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
        {
            index += 1
        }
    }
}
