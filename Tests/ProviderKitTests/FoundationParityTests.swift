import Foundation
import ProviderKit
import Testing

/// The plugin kit's text, URL and time helpers (which let a plugin link only FoundationEssentials) give what
/// Foundation's own APIs give, over random input.
@Suite("Parity with Foundation's text, URL and time APIs")
struct FoundationParityTests {
    /// Scalars that exercise the edges: blanks Foundation counts (tab, space, U+00A0, U+2003, U+3000), line
    /// breaks it does not, letters, a combining mark, an emoji, URL delimiters and `%`.
    static let pool: [Unicode.Scalar] = [
        "\t", " ", "\u{00A0}", "\u{2003}", "\u{3000}", "\n", "\r", "\u{2028}", "a", "Z", "7", "é", "\u{0301}",
        "😀", "/", "?", "#", "%", "+", "&", "=", ":", "@", "~", "-", "_", ".", "!", "'", "(", "*", ",", ";",
        "[", "]", "\"", "<", "\\", "^", "`", "{", "|", "}", "\u{7F}", "\u{1}",
    ]

    static func randomText<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            scalars.append(pool.randomElement(using: &generator) ?? "a")
        }
        return String(scalars)
    }

    /// Foundation's formatter of `format` in the POSIX locale and the time zone `zone`.
    static func posixFormatter(_ format: String, zone: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = format
        return formatter
    }

    @Test func blanksAreTrimmedAsCharacterSetWhitespacesTrimsThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = Self.randomText(using: &generator)
            #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
        #expect(" \t\u{3000}x y\u{00A0} ".trimmingBlanks() == "x y")
        #expect("\nx\n".trimmingBlanks() == "\nx\n")
        #expect(" \t ".trimmingBlanks().isEmpty)
    }

    @Test func aPathSegmentIsEncodedAsURLPathAllowedWithoutTheSlash() {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = Self.randomText(using: &generator)
            #expect(ProviderURL.pathSegment(text) == text.addingPercentEncoding(withAllowedCharacters: allowed))
        }
    }

    @Test func isoTimesParseAsISO8601DateFormatterParsesThem() throws {
        let whole = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: TimeInterval(Int64.random(in: 0...4_102_444_800, using: &generator)))
            let hours = Int.random(in: -12...14, using: &generator)
            let minutes = [0, 30, 45].randomElement(using: &generator) ?? 0
            let zone = try #require(TimeZone(secondsFromGMT: hours * 3600 + (hours < 0 ? -minutes : minutes) * 60))
            whole.timeZone = zone
            fractional.timeZone = zone
            for text in [whole.string(from: date), fractional.string(from: date.addingTimeInterval(0.25))] {
                let expected = try #require(whole.date(from: text) ?? fractional.date(from: text))
                let parsed = try #require(ProviderTime.iso8601(text), "\(text)")
                #expect(abs(parsed.timeIntervalSince(expected)) < 0.001, "\(text)")
            }
        }
        for bad in ["", "2026-11-21", "2026-11-21T12:00:00", "2026-11-21 12:00:00Z", "yesterday"] {
            #expect(ProviderTime.iso8601(bad) == nil, "\(bad)")
        }
    }

    @Test func utcDateTimesParseAsAPOSIXDateFormatterParsesThem() {
        let formatter = Self.posixFormatter("yyyy-MM-dd HH:mm:ss", zone: "UTC")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: TimeInterval(Int64.random(in: 0...4_102_444_800, using: &generator)))
            let text = formatter.string(from: date)
            #expect(ProviderTime.utcDateTime(text) == date, "\(text)")
        }
        for bad in ["2026-02-30 12:00:00", "2026-13-01 00:00:00", "2026-01-01 24:00:00", "2026-01-01T00:00:00", "x"] {
            #expect(ProviderTime.utcDateTime(bad) == nil, "\(bad)")
            #expect(formatter.date(from: bad) == nil, "\(bad)")
        }
    }

    @Test func rfc1123DatesAreWrittenAsAPOSIXDateFormatterWritesThem() {
        let formatter = Self.posixFormatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'", zone: "GMT")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = TimeInterval(Int64.random(in: 0...4_102_444_800, using: &generator))
            let date = Date(timeIntervalSince1970: seconds + Double.random(in: 0..<1, using: &generator))
            #expect(ProviderTime.rfc1123(date) == formatter.string(from: date))
        }
    }
}
