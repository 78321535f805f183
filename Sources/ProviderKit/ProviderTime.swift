#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Times as providers write them, without Foundation's formatters (a plugin needs only FoundationEssentials).
public enum ProviderTime {
    /// Whole seconds since the epoch, rounded down.
    public static func epochSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// The date rounded down to a whole second.
    public static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// An ISO 8601 internet time with an offset or `Z`, with or without fractional seconds
    /// (`2026-11-21T12:00:00+08:00`, `2026-11-21T12:00:00.5Z`); surrounding blanks are ignored. Nil otherwise.
    public static func iso8601(_ text: String) -> Date? {
        let text = text.trimmingBlanks()
        guard !text.isEmpty else { return nil }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// A time written `yyyy-MM-dd HH:mm:ss` in UTC (`2026-11-21 12:00:00`); nil otherwise.
    public static func utcDateTime(_ text: String) -> Date? {
        let bytes = Array(text.trimmingBlanks().utf8)
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
            let second = number(bytes[17..<19]),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = utcCalendar.date(from: parts),
            utcCalendar.component(.day, from: date) == day
        else { return nil }
        return date
    }

    /// An RFC 1123 date in GMT, as HTTP headers carry it: `Fri, 06 Jun 2014 13:39:43 GMT`. Like Foundation's
    /// formatters, the time is taken to the nearest millisecond, then its whole second.
    public static func rfc1123(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let parts = utcCalendar.dateComponents(
            [.weekday, .year, .month, .day, .hour, .minute, .second],
            from: wholeSeconds(Date(timeIntervalSince1970: milliseconds / 1000)))
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        let year = String(parts.year ?? 1970)
        return "\(weekday), \(two(parts.day)) \(month) \(year) \(two(parts.hour)):\(two(parts.minute)):"
            + "\(two(parts.second)) GMT"
    }

    /// The Gregorian calendar in UTC.
    public static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    private static func two(_ value: Int?) -> String {
        let value = value ?? 0
        return value < 10 ? "0\(value)" : "\(value)"
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
