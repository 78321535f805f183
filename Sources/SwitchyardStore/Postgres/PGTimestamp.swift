import Foundation

/// Conversion between `Date` and PostgreSQL's ISO text form of `timestamptz`, at microsecond precision.
enum PGTimestamp {
    private static let microsPerSecond: Int64 = 1_000_000
    private static let secondsPerDay: Int64 = 86_400

    /// Formats a date as `YYYY-MM-DD HH:MM:SS.ffffff+00` (UTC), rounded to the microsecond.
    static func format(_ date: Date) -> String {
        let scaled = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let limit = 9.2e18
        let micros = scaled.isNaN ? 0 : Int64(min(max(scaled, -limit), limit))
        let seconds = floorDiv(micros, microsPerSecond)
        let fraction = micros - seconds * microsPerSecond
        let days = floorDiv(seconds, secondsPerDay)
        let secondOfDay = seconds - days * secondsPerDay
        let (year, month, day) = civil(fromDays: days)
        let bc = year <= 0
        var text = pad(bc ? 1 - year : year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += " " + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        text += "." + pad(fraction, 6) + "+00"
        if bc { text += " BC" }
        return text
    }

    /// Parses the ISO output of `timestamptz`, `timestamp` (taken as UTC) or `date`; nil when malformed.
    static func parse(_ text: String) -> Date? {
        switch text {
        case "infinity": return .distantFuture
        case "-infinity": return .distantPast
        default: break
        }
        var scanner = TimestampScanner(Array(text.utf8))
        guard var year = scanner.number(minDigits: 4, maxDigits: 9), scanner.skip(UInt8(ascii: "-")),
            let month = scanner.number(minDigits: 2, maxDigits: 2), scanner.skip(UInt8(ascii: "-")),
            let day = scanner.number(minDigits: 2, maxDigits: 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var secondOfDay: Int64 = 0
        var fraction: Int64 = 0
        var offsetSeconds: Int64 = 0
        if scanner.skip(UInt8(ascii: " ")) || scanner.skip(UInt8(ascii: "T")) {
            guard let hour = scanner.number(minDigits: 2, maxDigits: 2), scanner.skip(UInt8(ascii: ":")),
                let minute = scanner.number(minDigits: 2, maxDigits: 2), scanner.skip(UInt8(ascii: ":")),
                let second = scanner.number(minDigits: 2, maxDigits: 2),
                hour <= 24, minute < 60, second <= 60
            else { return nil }
            secondOfDay = hour * 3600 + minute * 60 + second
            if scanner.skip(UInt8(ascii: ".")) {
                guard let (value, digits) = scanner.digits(maxDigits: 9) else { return nil }
                fraction = value
                for _ in digits..<6 { fraction *= 10 }
                for _ in 6..<max(6, digits) { fraction /= 10 }
            }
            guard let offset = scanner.offset() else { return nil }
            offsetSeconds = offset
        }
        if scanner.skip(Array(" BC".utf8)) { year = 1 - year }
        guard scanner.atEnd else { return nil }
        let days = days(fromCivil: year, month, day)
        let micros = ((days * secondsPerDay) + secondOfDay - offsetSeconds) * microsPerSecond + fraction
        return Date(timeIntervalSince1970: Double(micros) / 1_000_000)
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (year 0 is 1 BC).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDiv(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

/// A cursor over ASCII bytes for the timestamp parser.
private struct TimestampScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func skip(_ sequence: [UInt8]) -> Bool {
        guard bytes.count - index >= sequence.count, Array(bytes[index..<index + sequence.count]) == sequence
        else { return false }
        index += sequence.count
        return true
    }

    mutating func digits(maxDigits: Int) -> (value: Int64, count: Int)? {
        var value: Int64 = 0
        var count = 0
        while index < bytes.count, count < maxDigits, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            count += 1
            index += 1
        }
        return count == 0 ? nil : (value, count)
    }

    mutating func number(minDigits: Int, maxDigits: Int) -> Int64? {
        guard let (value, count) = digits(maxDigits: maxDigits), count >= minDigits else { return nil }
        return value
    }

    /// `Z`, `±HH`, `±HH:MM` or `±HH:MM:SS`; 0 when absent.
    mutating func offset() -> Int64? {
        if skip(UInt8(ascii: "Z")) { return 0 }
        let sign: Int64
        if skip(UInt8(ascii: "+")) {
            sign = 1
        } else if skip(UInt8(ascii: "-")) {
            sign = -1
        } else {
            return 0
        }
        guard let hours = number(minDigits: 2, maxDigits: 2) else { return nil }
        var total = hours * 3600
        if skip(UInt8(ascii: ":")) {
            guard let minutes = number(minDigits: 2, maxDigits: 2) else { return nil }
            total += minutes * 60
            if skip(UInt8(ascii: ":")) {
                guard let seconds = number(minDigits: 2, maxDigits: 2) else { return nil }
                total += seconds
            }
        }
        return sign * total
    }
}
