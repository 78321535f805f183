#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension JSONStreamWriter {
    /// Writes `value` when it is a type `JSONEncoder` writes as a scalar (or as Base64, a date, a URL);
    /// false for any other type.
    func writeScalar<T: Encodable>(_ value: T) -> Bool {
        let type = ObjectIdentifier(T.self)
        if type == ObjectIdentifier(String.self) {
            writeString(value as! String)
        } else if type == ObjectIdentifier(Int.self) {
            writeInteger(Int64(value as! Int))
        } else if type == ObjectIdentifier(Int64.self) {
            writeInteger(value as! Int64)
        } else if type == ObjectIdentifier(Bool.self) {
            append((value as! Bool) ? "true" : "false")
        } else if type == ObjectIdentifier(Date.self) {
            writeDate(value as! Date)
        } else if type == ObjectIdentifier(Double.self) {
            writeDouble(value as! Double)
        } else if type == ObjectIdentifier(Int32.self) {
            writeInteger(Int64(value as! Int32))
        } else if type == ObjectIdentifier(UInt64.self) {
            writeUnsigned(value as! UInt64)
        } else if type == ObjectIdentifier(UInt32.self) {
            writeUnsigned(UInt64(value as! UInt32))
        } else if type == ObjectIdentifier(UInt.self) {
            writeUnsigned(UInt64(value as! UInt))
        } else if type == ObjectIdentifier(Int16.self) {
            writeInteger(Int64(value as! Int16))
        } else if type == ObjectIdentifier(Int8.self) {
            writeInteger(Int64(value as! Int8))
        } else if type == ObjectIdentifier(UInt16.self) {
            writeUnsigned(UInt64(value as! UInt16))
        } else if type == ObjectIdentifier(UInt8.self) {
            writeUnsigned(UInt64(value as! UInt8))
        } else if type == ObjectIdentifier(Float.self) {
            writeFloat(value as! Float)
        } else if type == ObjectIdentifier(Data.self) {
            writeString((value as! Data).base64EncodedString())
        } else if type == ObjectIdentifier(URL.self) {
            writeString((value as! URL).absoluteString)
        } else if type == ObjectIdentifier(UUID.self) {
            writeString((value as! UUID).text(uppercase: true))
        } else if type == ObjectIdentifier(Decimal.self) {
            appendBytes((value as! Decimal).description.utf8)
        } else {
            return false
        }
        return true
    }

    /// A JSON string, escaped as `JSONEncoder` escapes it: quote, backslash and control characters
    /// (`\b \f \n \r \t`, the others as `\u00XX`), and `/` unless slashes are left alone.
    func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            appendQuoted(utf8)
        }
    }

    private func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        appendByte(UInt8(ascii: "\""))
        var start = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            let escape: StaticString
            switch byte {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "/") where escapesSlashes: escape = "\\/"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0..<0x20:
                appendBytes(UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendHexEscape(byte)
                start = index + 1
                continue
            default:
                continue
            }
            appendBytes(UnsafeBufferPointer(rebasing: utf8[start..<index]))
            append(escape)
            start = index + 1
        }
        appendBytes(UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        appendByte(UInt8(ascii: "\""))
    }

    private func appendHexEscape(_ byte: UInt8) {
        let digits: StaticString = "0123456789abcdef"
        append("\\u00")
        digits.withUTF8Buffer { hex in
            appendByte(hex[Int(byte >> 4)])
            appendByte(hex[Int(byte & 0x0F)])
        }
    }

    func writeInteger(_ value: Int64) {
        if value < 0 {
            appendByte(UInt8(ascii: "-"))
            writeUnsigned(value.magnitude)
        } else {
            writeUnsigned(UInt64(value))
        }
    }

    func writeUnsigned(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            var rest = value
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            appendBytes(UnsafeRawBufferPointer(rebasing: buffer[position...]))
        }
    }

    /// A `Double` as `JSONEncoder` writes it: its shortest description, without a trailing `.0`. Not a
    /// number and the infinities have no JSON: the value is handed to `JSONEncoder`, which refuses them.
    func writeDouble(_ value: Double) {
        guard value.isFinite else {
            unsupported = true
            return
        }
        appendNumber(value.description)
    }

    func writeFloat(_ value: Float) {
        guard value.isFinite else {
            unsupported = true
            return
        }
        appendNumber(value.description)
    }

    private func appendNumber(_ description: String) {
        var text = Substring(description)
        if text.hasSuffix(".0") { text = text.dropLast(2) }
        appendBytes(text.utf8)
    }

    /// A date in the writer's ``CompactJSONEncoder/DateStyle``.
    func writeDate(_ date: Date) {
        switch dates {
        case .secondsSince1970:
            writeDouble(date.timeIntervalSince1970)
        case .iso8601:
            writeISO8601(date)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` in UTC, the fraction of a second dropped, as `JSONEncoder`'s `.iso8601` writes
    /// it (proleptic Gregorian from 1583 on).
    private func writeISO8601(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 3e11 else {
            unsupported = true
            return
        }
        let total = Int64(seconds)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        // Foundation's calendar is Julian before October 1582: such dates go to `JSONEncoder`.
        guard (1583...9999).contains(year) else {
            unsupported = true
            return
        }
        appendByte(UInt8(ascii: "\""))
        appendDigits(year, count: 4)
        appendByte(UInt8(ascii: "-"))
        appendDigits(month, count: 2)
        appendByte(UInt8(ascii: "-"))
        appendDigits(day, count: 2)
        appendByte(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3600, count: 2)
        appendByte(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, count: 2)
        appendByte(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, count: 2)
        append("Z\"")
    }

    private func appendDigits(_ value: Int64, count: Int) {
        var divisor: Int64 = 1
        for _ in 1..<count { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            appendByte(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
