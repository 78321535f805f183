/// JSON's string escapes, as the one-pass readers (``RelayJSONReader``, ``JSONTape``) read them.
enum JSONEscapes {
    /// The text of the bytes between a string's quotes with its escapes replaced; nil for a bad escape, a raw
    /// control character, a lone surrogate or invalid UTF-8.
    static func unescaped(_ bytes: UnsafeRawBufferPointer) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard index < bytes.count else { return nil }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let scalar = unicodeEscape(bytes, &index) else { return nil }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default: return nil
            }
        }
        return text(out)
    }

    /// `bytes` as a string; nil when they are not valid UTF-8.
    static func text(_ bytes: some Collection<UInt8>) -> String? {
        if #available(macOS 15, *) { return String(validating: bytes, as: UTF8.self) }
        // String(decoding:) repairs invalid UTF-8, so a repaired text no longer has the same bytes.
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// The scalar of a `\uXXXX` escape whose `\u` is read, a surrogate pair taking two; nil for a lone
    /// surrogate.
    private static func unicodeEscape(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> Unicode.Scalar? {
        guard let high = hex4(bytes, &index) else { return nil }
        guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { return nil }
        index += 2
        guard let low = hex4(bytes, &index), (0xDC00...0xDFFF).contains(low) else { return nil }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    private static func hex4(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = hexDigit(bytes[index]) else { return nil }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// The value of a hexadecimal digit (either case), or nil.
    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
