import Foundation
import ProviderKit

/// The one strict reading of a JSON request body: it validates the body and builds the document that the
/// body's type is decoded from, its idempotency hash computed and its unknown keys found.
///
/// `JSONDecoder` accepts what the API must refuse: a key given twice in one object (one of the values
/// silently wins), a NUL character in a string (PostgreSQL cannot store it), nesting deep enough to exhaust
/// the stack of the decoding task; and it forgets how a number was written, so `12.0` and `1e3` read as
/// integers. The scan refuses the first three with a 400 naming the field, and records where numbers
/// written with a fraction or an exponent are, so that integer-only fields (amounts) can refuse them.
/// Every value is read as `JSONDecoder` reads it into a ``JSONValue``: a number written as an integer
/// that fits an `Int64` directly, any other through `JSONDecoder` itself, so both readings agree.
enum StrictJSON {
    /// The deepest nesting of objects and arrays accepted.
    static let maximumDepth = 32

    /// What the scan learnt about a body it accepted.
    struct Report: Sendable, Equatable {
        /// The fields (rendered by ``StrictJSON/field(_:)``) whose value is a number written with a fraction
        /// or an exponent.
        var nonIntegerNumbers: Set<String> = []
    }

    /// A body the scan accepted: its value, and what the scan learnt about how it was written.
    struct Document: Sendable, Equatable {
        var value: JSONValue
        var report: Report
    }

    /// The key under which ``JSONBody`` hands the report to `Decodable` types through `userInfo`.
    static let reportKey = CodingUserInfoKey(rawValue: "switchyard.strictJSON.report")!

    /// Scans `data` as one JSON text; throws a 400 ``APIError`` (`invalid_json`, `duplicate_key` or
    /// `invalid_text`) for the first problem.
    static func scan(_ data: Data) throws(APIError) -> Document {
        let bytes = [UInt8](data)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw APIError(.invalidJSON, "the body is not valid UTF-8")
        }
        var scanner = Scanner(bytes: bytes)
        let value = try scanner.value(depth: 0)
        scanner.skipSpace()
        guard scanner.index == bytes.count else { throw scanner.syntaxError() }
        return Document(value: value, report: scanner.report)
    }

    /// A field's name as API errors show it: keys and array positions joined by dots (`rules.0.weights`).
    static func field(_ path: [String]) -> String {
        path.joined(separator: ".")
    }

    /// A field's name for an error message: at most 100 characters, so a huge key is not echoed whole.
    static func shown(_ path: [String]) -> String {
        let name = field(path)
        return name.count <= 100 ? name : name.prefix(100) + "…"
    }

    /// A decoder's coding path rendered like ``field(_:)``.
    static func field(_ path: [any CodingKey]) -> String {
        field(path.map { $0.intValue.map(String.init) ?? $0.stringValue })
    }

    /// A decoder's coding path as an error's `param` shows it: a JSON path, keys joined by dots and array
    /// positions in brackets (`items[2].sku`).
    static func param(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    /// A recursive-descent validator over the body's bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var path: [String] = []
        var report = Report()

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func value(depth: Int) throws(APIError) -> JSONValue {
            skipSpace()
            guard index < bytes.count else { throw syntaxError() }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                return try object(depth: depth + 1)
            case UInt8(ascii: "["):
                return try array(depth: depth + 1)
            case UInt8(ascii: "\""):
                let text = try string()
                if text.containsNUL { throw nulError(path) }
                return .string(String(decoding: text.bytes, as: UTF8.self))
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return try number()
            default:
                throw syntaxError()
            }
        }

        /// Reads an object. Two keys are the same when their texts are (as Swift compares them, so also
        /// two spellings of one accented letter): `JSONDecoder` would keep only one of their values.
        private mutating func object(depth: Int) throws(APIError) -> JSONValue {
            try enter(depth)
            index += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if peek == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw syntaxError() }
                let key = try string()
                let name = String(decoding: key.bytes, as: UTF8.self)
                if key.containsNUL { throw nulError(path, inKey: true) }
                guard members[name] == nil else {
                    throw APIError(
                        .duplicateKey,
                        "the field '\(StrictJSON.shown(path + [name]))' appears more than once")
                }
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw syntaxError() }
                index += 1
                path.append(name)
                members[name] = try value(depth: depth)
                path.removeLast()
                skipSpace()
                switch peek {
                case UInt8(ascii: ","):
                    index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(members)
                default:
                    throw syntaxError()
                }
            }
        }

        private mutating func array(depth: Int) throws(APIError) -> JSONValue {
            try enter(depth)
            index += 1
            var elements: [JSONValue] = []
            skipSpace()
            if peek == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                path.append(String(elements.count))
                elements.append(try value(depth: depth))
                path.removeLast()
                skipSpace()
                switch peek {
                case UInt8(ascii: ","):
                    index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                default:
                    throw syntaxError()
                }
            }
        }

        private func enter(_ depth: Int) throws(APIError) {
            guard depth <= StrictJSON.maximumDepth else {
                throw APIError(
                    .invalidJSON, "the body is nested deeper than \(StrictJSON.maximumDepth) levels")
            }
        }

        /// Reads a string at `index` (on its opening quote): its unescaped UTF-8 bytes, and whether it
        /// holds a NUL character (raw or escaped).
        private mutating func string() throws(APIError) -> (bytes: [UInt8], containsNUL: Bool) {
            index += 1
            var out: [UInt8] = []
            var containsNUL = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return (out, containsNUL)
                case UInt8(ascii: "\\"):
                    guard let scalar = Unicode.Scalar(try escape()) else { throw escapeError() }
                    if scalar.value == 0 { containsNUL = true }
                    UTF8.encode(scalar) { out.append($0) }
                case 0:
                    containsNUL = true
                    out.append(0)
                case 0x01..<0x20:
                    index -= 1
                    throw syntaxError()
                default:
                    out.append(byte)
                }
            }
            throw syntaxError()
        }

        /// Reads the escape after a backslash; returns the Unicode scalar value it stands for.
        private mutating func escape() throws(APIError) -> UInt32 {
            guard index < bytes.count else { throw syntaxError() }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return UInt32(byte)
            case UInt8(ascii: "b"): return 0x08
            case UInt8(ascii: "f"): return 0x0C
            case UInt8(ascii: "n"): return 0x0A
            case UInt8(ascii: "r"): return 0x0D
            case UInt8(ascii: "t"): return 0x09
            case UInt8(ascii: "u"):
                let unit = try hex4()
                switch unit {
                case 0xD800...0xDBFF:
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw escapeError() }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw escapeError() }
                    return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                case 0xDC00...0xDFFF:
                    throw escapeError()
                default:
                    return unit
                }
            default:
                index -= 1
                throw syntaxError()
            }
        }

        private mutating func hex4() throws(APIError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw syntaxError() }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = RelayJSONReader.hexDigit(bytes[index]) else { throw syntaxError() }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        /// Reads a number; records its field when it is written with a fraction or an exponent. An integer
        /// within `Int64` is read directly; any other number as `JSONDecoder` reads it into a ``JSONValue``
        /// (an integer when it is a whole number an `Int64` holds, else a `Double`), and one it cannot read
        /// (beyond a `Double`'s range) is `invalid_json`.
        private mutating func number() throws(APIError) -> JSONValue {
            let start = index
            if peek == UInt8(ascii: "-") { index += 1 }
            if peek == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { throw syntaxError() }
            }
            var integral = true
            if peek == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw syntaxError() }
                integral = false
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw syntaxError() }
                integral = false
            }
            if !integral { report.nonIntegerNumbers.insert(StrictJSON.field(path)) }
            let text = bytes[start..<index]
            if integral, let whole = Int64(String(decoding: text, as: UTF8.self)) { return .integer(whole) }
            let unreadable = APIError(.invalidJSON, "the body has a number no field can hold (at byte \(start))")
            guard let read = try? JSONDecoder().decode(JSONValue.self, from: Data(text)) else { throw unreadable }
            return read
        }

        private mutating func digits() -> Int {
            let start = index
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - start
        }

        private mutating func literal(_ word: String) throws(APIError) {
            let expected = word.utf8
            guard index + expected.count <= bytes.count, bytes[index..<(index + expected.count)].elementsEqual(expected)
            else { throw syntaxError() }
            index += expected.count
        }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = peek,
                byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                    || byte == UInt8(ascii: "\r")
            {
                index += 1
            }
        }

        func syntaxError() -> APIError {
            APIError(.invalidJSON, "the body is not valid JSON (at byte \(index))")
        }

        private func escapeError() -> APIError {
            APIError(.invalidJSON, "the body has an invalid \\u escape (at byte \(index))")
        }

        private func nulError(_ path: [String], inKey: Bool = false) -> APIError {
            let place =
                path.isEmpty
                ? (inKey ? "a key of the body" : "the body")
                : inKey ? "a key in the field '\(StrictJSON.shown(path))'" : "the field '\(StrictJSON.shown(path))'"
            return APIError(.invalidText, "\(place) contains a NUL character")
        }
    }
}
