import Foundation
import Testing

@testable import SwitchyardCore

/// The limits of a merchant's metadata and descriptions, and our normalised decline reasons.
struct MetadataTests {
    func refusal(_ values: [String: String]) -> CoreError? {
        do {
            _ = try Metadata(values)
            return nil
        } catch {
            return error
        }
    }

    @Test func metadataWithinTheLimitsIsKept() throws {
        let full = Dictionary(uniqueKeysWithValues: (0..<50).map { ("key_\($0)", String(repeating: "v", count: 500)) })
        #expect(try Metadata(full).values == full)
        let longest = String(repeating: "k", count: 40)
        #expect(try Metadata([longest: ""]).values == [longest: ""])
        #expect(try Metadata(["ключ": "значение"]).values == ["ключ": "значение"])
    }

    @Test func eachLimitIsRefusedNamingTheField() {
        let tooMany = Dictionary(uniqueKeysWithValues: (0...50).map { ("k\($0)", "v") })
        #expect(refusal(tooMany) == CoreError(.invalidMetadata, "metadata may have at most 50 keys", param: "metadata"))
        #expect(refusal(["order_no": String(repeating: "v", count: 501)])?.param == "metadata.order_no")
        #expect(refusal([String(repeating: "k", count: 41): "v"])?.code == .invalidMetadata)
        #expect(refusal(["": "v"])?.code == .invalidMetadata)
        #expect(refusal(["a\u{7}b": "v"])?.code == .invalidMetadata)
        #expect(refusal(["line\nbreak": "v"])?.code == .invalidMetadata)
        #expect(refusal(["a\u{7}b": "v"])?.param == "metadata")
    }

    @Test func containmentNeedsEveryPair() throws {
        let metadata = try Metadata(["order_no": "A-17", "channel": "web"])
        #expect(metadata.contains([:]))
        #expect(metadata.contains(["order_no": "A-17"]))
        #expect(metadata.contains(["order_no": "A-17", "channel": "web"]))
        #expect(!metadata.contains(["order_no": "A-17", "channel": "shop"]))
        #expect(!metadata.contains(["order": "A-17"]))
    }

    @Test func metadataEncodesAsAPlainObject() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(try Metadata(["b": "2", "a": "1"]))
        #expect(String(decoding: data, as: UTF8.self) == #"{"a":"1","b":"2"}"#)
        #expect(try JSONDecoder().decode(Metadata.self, from: data).values == ["a": "1", "b": "2"])
    }

    @Test func descriptionsAreAtMostAThousandCharacters() {
        #expect(throws: Never.self) { try ResourceDescription.validate(nil) }
        #expect(throws: Never.self) { try ResourceDescription.validate(String(repeating: "é", count: 1000)) }
        let tooLong = CoreError(
            .invalidDescription, "description must be at most 1000 characters", param: "description")
        #expect(throws: tooLong) {
            try ResourceDescription.validate(String(repeating: "d", count: 1001))
        }
    }

    @Test func declineCodesAreNormalised() {
        #expect(DeclineCode.normalised("51") == "insufficient_funds")
        #expect(DeclineCode.normalised("n7") == "incorrect_cvc")
        #expect(DeclineCode.normalised("Expired_Card") == "expired_card")
        #expect(DeclineCode.normalised("BALANCE_NOT_ENOUGH") == "generic_decline")
        #expect(DeclineCode.normalised(nil) == "generic_decline")
        #expect(DeclineCode.reasons.contains(DeclineCode.normalised("05")))
    }
}
