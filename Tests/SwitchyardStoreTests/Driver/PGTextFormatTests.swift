import Foundation
import Testing

@testable import SwitchyardCluster
@testable import SwitchyardStore

@Suite("Text formats (no database)")
struct PGTextFormatTests {
    @Test func formatsTimestampsInUTCWithMicroseconds() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123456)
        #expect(PGTimestamp.format(date) == "2023-11-14 22:13:20.123456+00")
        #expect(PGTimestamp.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31 23:59:59.500000+00")
        #expect(PGTimestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00.000000+00")
    }

    @Test func parsesTheServerOutputForms() throws {
        let expected = Date(timeIntervalSince1970: 1_700_000_000.123456)
        #expect(PGTimestamp.parse("2023-11-14 22:13:20.123456+00") == expected)
        #expect(PGTimestamp.parse("2023-11-15 03:43:20.123456+05:30") == expected)
        #expect(PGTimestamp.parse("2023-11-14 17:13:20.123456-05") == expected)
        #expect(PGTimestamp.parse("2023-11-14 22:13:20.123456") == expected)
        #expect(PGTimestamp.parse("2023-11-14T22:13:20.123456Z") == expected)
        #expect(PGTimestamp.parse("2023-11-14 22:13:20+00") == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(PGTimestamp.parse("2023-11-14 22:13:20.5+00") == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(PGTimestamp.parse("2023-11-14") == Date(timeIntervalSince1970: 1_699_920_000))
        #expect(PGTimestamp.parse("infinity") == .distantFuture)
        #expect(PGTimestamp.parse("-infinity") == .distantPast)
        #expect(PGTimestamp.parse("0001-01-01 00:00:00+00 BC") != nil)
    }

    @Test func rejectsMalformedTimestamps() {
        for text in ["", "2023", "2023-13-01", "2023-11-14 25:00", "2023-11-14 22:13:20+", "2023-11-14 22:13:20 x"] {
            #expect(PGTimestamp.parse(text) == nil, "\(text)")
        }
    }

    @Test func timestampFormatAndParseRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let micros = Int64.random(in: -2_000_000_000_000_000...3_000_000_000_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
            let parsed = try #require(PGTimestamp.parse(PGTimestamp.format(date)))
            #expect(parsed == date, "\(PGTimestamp.format(date))")
        }
    }

    @Test func civilDateConversionMatchesKnownDays() {
        #expect(PGTimestamp.days(fromCivil: 1970, 1, 1) == 0)
        #expect(PGTimestamp.days(fromCivil: 2000, 3, 1) == 11_017)
        #expect(PGTimestamp.civil(fromDays: 11_016) == (2000, 2, 29))
        #expect(PGTimestamp.civil(fromDays: -1) == (1969, 12, 31))
    }

    @Test func byteaHexRoundTripAndRejection() {
        let bytes = (0...255).map(UInt8.init)
        let text = PGHex.encode(bytes)
        #expect(text.hasPrefix("\\x000102"))
        #expect(PGHex.decode(text) == bytes)
        #expect(PGHex.decode("\\xDEADbeef") == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(PGHex.decode("\\x") == [])
        #expect(PGHex.decode("deadbeef") == nil)
        #expect(PGHex.decode("\\xabc") == nil)
        #expect(PGHex.decode("\\xzz") == nil)
    }

    @Test func dataExceptionMessagesLoseTheQuotedInput() {
        #expect(
            PGError.sanitizedServerMessage(
                "invalid input syntax for type uuid: \"4111111111111111\"", sqlState: "22P02")
                == "invalid input syntax for type uuid: \"…\"")
        #expect(
            PGError.sanitizedServerMessage("value \"99999999999\" is out of range for type integer", sqlState: "22003")
                == "value \"…\" is out of range for type integer")
        let unique = "duplicate key value violates unique constraint \"t_pkey\""
        #expect(PGError.sanitizedServerMessage(unique, sqlState: "23505") == unique)
    }

    @Test func parameterEncoding() throws {
        #expect(try PGValue.double(.infinity).encoded(position: 1) == "Infinity")
        #expect(try PGValue.double(-.infinity).encoded(position: 1) == "-Infinity")
        #expect(try PGValue.double(.nan).encoded(position: 1) == "NaN")
        #expect(try PGValue.bool(true).encoded(position: 1) == "true")
        #expect(try PGValue.null.encoded(position: 1) == nil)
        let uuid = UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!
        #expect(try PGValue.uuid(uuid).encoded(position: 1) == "6ba7b810-9dad-11d1-80b4-00c04fd430c8")
        #expect(PGValue(nil as String?) == .null)
        #expect(PGValue(7 as Int?) == .int(7))
        #expect(throws: PGError.self) { try PGValue.text("a\u{0}b").encoded(position: 3) }
    }

    @Test func connectionValuesAndIdentifiersAreQuoted() throws {
        #expect(PostgresCluster.quoteConnectionValue("a b'c\\d") == "'a b\\'c\\\\d'")
        #expect(try PGPool.quoteIdentifier("we\"ird") == "\"we\"\"ird\"")
        #expect(throws: PGError.self) { try PGPool.quoteIdentifier("") }
        #expect(try PGPool.quoteIdentifier("plain") == "\"plain\"")
        #expect(try PGPool.quoteLiteral("6ba7b810-9dad") == "E'6ba7b810-9dad'")
        #expect(try PGPool.quoteLiteral("it's a \\ back") == "E'it''s a \\\\ back'")
        #expect(throws: PGError.self) { try PGPool.quoteLiteral("a\u{0}b") }
    }
}
