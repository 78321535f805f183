import Foundation
import ProviderKit
import Testing

/// `JSONValue` tries the kinds in the order that costs least for what crosses; the order never changes
/// what a document decodes to.
struct JSONValueDecodingTests {
    /// The earlier order (null, bool, integer, number, string, array, object), as the reference.
    private struct Reference: Decodable {
        var value: JSONValue

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = .null
            } else if let flag = try? container.decode(Bool.self) {
                value = .bool(flag)
            } else if let integer = try? container.decode(Int64.self) {
                value = .integer(integer)
            } else if let number = try? container.decode(Double.self) {
                value = .number(number)
            } else if let text = try? container.decode(String.self) {
                value = .string(text)
            } else if let items = try? container.decode([Reference].self) {
                value = .array(items.map(\.value))
            } else {
                value = .object(try container.decode([String: Reference].self).mapValues(\.value))
            }
        }
    }

    @Test func everyKindDecodesAsInTheReferenceOrder() throws {
        let documents = [
            #"{"s":"x","i":12,"neg":-3,"zero":0,"big":9223372036854775808,"d":1.5,"e":1e3,"e2":2.5E-3,"t":true,"f":false}"#,
            #"{"n":null,"a":[1,"two",[false],{"k":null}],"o":{"nested":{"deep":"v"}},"numstr":"12","boolstr":"true"}"#,
            #"[null,true,"",-0,-0.0,1.0,123456789012345678901234567890,"\u00e9\ud83d\ude00",[],{}]"#,
            #""just a string""#, "42", "4.25", "false", "null",
        ]
        for document in documents {
            let data = Data(document.utf8)
            let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
            let reference = try JSONDecoder().decode(Reference.self, from: data).value
            #expect(decoded == reference, "\(document)")
        }
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(documents[0].utf8))
        guard case .object(let fields) = object else {
            Issue.record("not an object")
            return
        }
        #expect(fields["s"] == .string("x"))
        #expect(fields["i"] == .integer(12))
        #expect(fields["d"] == .number(1.5))
        #expect(fields["t"] == .bool(true))
        #expect(fields["big"] == .number(9_223_372_036_854_775_808))
    }
}
