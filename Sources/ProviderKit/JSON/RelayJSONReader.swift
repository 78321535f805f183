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
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // The common case: no escape, one copy.
                return escaped ? JSONEscapes.unescaped(content) : JSONEscapes.text(content)
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 1
            }
            index += 1
        }
        return nil
    }

    /// The value of a hexadecimal digit (either case), or nil.
    package static func hexDigit(_ byte: UInt8) -> UInt32? {
        JSONEscapes.hexDigit(byte)
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
