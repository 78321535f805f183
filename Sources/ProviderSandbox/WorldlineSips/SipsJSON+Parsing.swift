extension SipsJSON {
    /// Parses JSON text, keeping number literals and member order; nil when the bytes are not one
    /// well-formed JSON value (or nest deeper than 64 levels).
    static func parse(_ bytes: [UInt8]) -> SipsJSON? {
        var parser = Parser(bytes: bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.index == bytes.count ? value : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func value(depth: Int) -> SipsJSON? {
            guard depth < 64 else { return nil }
            skipSpace()
            switch current {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(SipsJSON.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            case .some(let byte) where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte): return number()
            default: return nil
            }
        }

        private mutating func literal(_ word: String, _ value: SipsJSON) -> SipsJSON? {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected
            else { return nil }
            index += expected.count
            return value
        }

        private mutating func object(depth: Int) -> SipsJSON? {
            index += 1
            var pairs: [(String, SipsJSON)] = []
            skipSpace()
            if current == UInt8(ascii: "}") {
                index += 1
                return .object(pairs)
            }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\""), let name = string() else { return nil }
                skipSpace()
                guard current == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(depth: depth + 1) else { return nil }
                pairs.append((name, member))
                skipSpace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(pairs)
                default: return nil
                }
            }
        }

        private mutating func array(depth: Int) -> SipsJSON? {
            index += 1
            var values: [SipsJSON] = []
            skipSpace()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                values.append(element)
                skipSpace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(values)
                default: return nil
                }
            }
        }

        private mutating func number() -> SipsJSON? {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, (0x30...0x39).contains(first) else { return nil }
            index += 1
            if first != 0x30 { skipDigits() }
            if current == UInt8(ascii: ".") {
                index += 1
                guard skipDigits() > 0 else { return nil }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() > 0 else { return nil }
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        @discardableResult
        private mutating func skipDigits() -> Int {
            var count = 0
            while let byte = current, (0x30...0x39).contains(byte) {
                index += 1
                count += 1
            }
            return count
        }

        /// A string starting at the opening quote, unescaped.
        private mutating func string() -> String? {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                if !run.isEmpty {
                    scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                    run.removeAll()
                }
            }
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard let scalar = escape() else { return nil }
                    scalars.append(scalar)
                case 0..<0x20:
                    return nil
                default:
                    run.append(byte)
                }
            }
            return nil
        }

        private mutating func escape() -> Unicode.Scalar? {
            guard let byte = current else { return nil }
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
                if (0xD800...0xDBFF).contains(high) {
                    guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                    else { return nil }
                    index += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
                return Unicode.Scalar(high)
            default: return nil
            }
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            let text = String(decoding: bytes[index..<index + 4], as: UTF8.self)
            guard text.allSatisfy(\.isHexDigit), let value = UInt32(text, radix: 16) else { return nil }
            index += 4
            return value
        }
    }
}
