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
}
