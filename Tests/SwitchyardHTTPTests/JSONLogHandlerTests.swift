import Foundation
import Logging
import Testing

@testable import SwitchyardObservability

/// The JSON log lines: one parseable object per record, whatever the message and metadata hold.
struct JSONLogHandlerTests {
    @Test func recordsAreOneEscapedObjectPerLineWithDottedMetadata() throws {
        let lines = LockedState<[String]>([])
        var logger = Logger(label: "switchyard.test") { label in
            JSONLogHandler(label: label) { line in lines.withLock { $0.append(line) } }
        }
        logger[metadataKey: "request.id"] = "r-1"
        logger.info(
            "quote \" backslash \\ newline \n tab \t bell \u{07} end",
            metadata: ["tenant": ["id": "t-1"], "payment.id": "pay_\u{2028}x"])
        let line = try #require(lines.withLock { $0 }.first)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{07} end")
        #expect(object["level"] as? String == "info")
        #expect(object["logger"] as? String == "switchyard.test")
        #expect(object["request.id"] as? String == "r-1")
        #expect(object["tenant.id"] as? String == "t-1")
        #expect(object["payment.id"] as? String == "pay_\u{2028}x")
        #expect((object["time"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func aRecordIsWrittenByteForByte() {
        let line = JSONLogHandler.line(
            time: Date(timeIntervalSince1970: 1_700_000_000.123), level: .warning,
            message: "a\"b\\c\n\r\t\u{01}\u{1F}\u{7F} \u{2028}\u{2029}\u{2027} é€😀", label: "switchyard.x",
            metadata: ["b": "2", "a": ["y": "1", "x": .stringConvertible(7)], "time": "not this", "list": ["p", "q"]])
        #expect(
            line == #"{"time":"2023-11-14T22:13:20.123Z","level":"warning","message":"a\"b\\c\n\r\t\u0001\u001f\u007f "#
                + #"\u2028\u2029\#u{2027} é€😀","logger":"switchyard.x","a.x":"7","a.y":"1","b":"2","list":"[p, q]"}"#)
    }

    @Test func timestampsAreTheCalendarsOwn() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: TimeZone(identifier: "UTC")!)
        var generator = SystemRandomNumberGenerator()
        let seconds: [Int64] =
            [0, -1, 59, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800, 253_402_300_799]
            + (0..<2000).map { _ in Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator) }
        for second in seconds {
            for millisecond: Int64 in [0, 7, 999] {
                var out: [UInt8] = []
                let date = Date(timeIntervalSince1970: Double(second) + Double(millisecond) / 1000)
                JSONLogHandler.appendTimestamp(date, to: &out)
                let expected =
                    String(Date(timeIntervalSince1970: Double(second)).formatted(style).dropLast())
                    + "." + String(1000 + millisecond).dropFirst() + "Z"
                #expect(String(decoding: out, as: UTF8.self) == expected)
            }
        }
    }
}
