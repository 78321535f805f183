import Foundation

/// Date formats of the Sips wire (UTC).
enum SipsTime {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    private static func parts(_ date: Date) -> DateComponents {
        calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    }

    /// ISO-8601 with offset, e.g. `2027-01-15T08:00:00+00:00`.
    static func dateTime(_ date: Date) -> String {
        let c = parts(date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d+00:00", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0,
            c.minute ?? 0, c.second ?? 0)
    }

    /// `yyyyMMdd` of `date` plus `days`.
    static func day(_ date: Date, plusDays days: Int64 = 0) -> String {
        let shifted = calendar.date(byAdding: .day, value: Int(days), to: date) ?? date
        let c = parts(shifted)
        return String(format: "%04d%02d%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// `yyyyMM` of `date`.
    static func month(_ date: Date) -> String {
        let c = parts(date)
        return String(format: "%04d%02d", c.year ?? 0, c.month ?? 0)
    }
}
