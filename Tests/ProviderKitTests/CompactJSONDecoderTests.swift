import Foundation
import Testing

@testable import ProviderKit

/// The one-pass decoder: what it reads equals what `JSONDecoder` reads from the same bytes, and what it
/// declines `JSONDecoder` still decides.
struct CompactJSONDecoderTests {
    private struct Scalars: Codable, Equatable {
        var text: String
        var flag: Bool
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint64: UInt64
        var double: Double
        var date: Date
        var data: Data
        var optional: String?
        var missing: Int?
        var list: [Int]
        var nested: [String: [Double]]
        var values: [JSONValue]
    }

    /// Records the coding path each value is decoded at.
    private struct Recorder: Decodable {
        var paths: [String]

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let here = decoder.codingPath.map(\.stringValue).joined(separator: ".")
            if let keyed = try? decoder.container(keyedBy: Key.self) {
                paths = [here]
                for key in keyed.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                    paths += try keyed.decode(Recorder.self, forKey: key).paths
                }
            } else if var unkeyed = try? decoder.unkeyedContainer() {
                paths = [here]
                while !unkeyed.isAtEnd { paths += try unkeyed.decode(Recorder.self).paths }
            } else {
                paths = [here]
            }
        }
    }

    private static let pieces = [
        "a", "Z", "0", " ", "/", "\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "漢", "😀", "\u{2028}",
    ]

    private static func text(_ random: inout SystemRandomNumberGenerator) -> String {
        (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    private static func value(_ random: inout SystemRandomNumberGenerator, depth: Int) -> JSONValue {
        switch Int.random(in: 0...(depth > 3 ? 5 : 7), using: &random) {
        case 0: .null
        case 1: .bool(Bool.random(using: &random))
        case 2:
            .integer(
                [0, 1, -1, Int64.max, Int64.min, .random(in: -1_000_000...1_000_000, using: &random)].randomElement(
                    using: &random)!)
        case 3:
            .number(
                [0.5, -2.25, 1e-7, 123456.789, 1.7976931348623157e308, .random(in: -1e6...1e6, using: &random)]
                    .randomElement(using: &random)!)
        case 4, 5: .string(text(&random))
        case 6: .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            .object(
                Dictionary(
                    (0..<Int.random(in: 0...20, using: &random)).map { _ in
                        (text(&random), value(&random, depth: depth + 1))
                    },
                    uniquingKeysWith: { a, _ in a }))
        }
    }

    private static let decoder = CompactJSONDecoder(dates: .secondsSince1970)

    private static func foundation() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    @Test func randomDocumentsAreReadInOnePassAsJSONDecoderReadsThem() throws {
        var random = SystemRandomNumberGenerator()
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
        var declined = 0
        for _ in 0..<500 {
            let value = Self.value(&random, depth: 0)
            for encoded in [try PluginJSON.encode(value), try pretty.encode(value)] {
                let expected = try Self.foundation().decode(JSONValue.self, from: encoded)
                #expect(try Self.decoder.decode(JSONValue.self, from: encoded) == expected)
                if let fast = Self.decoder.decodedInOnePass(JSONValue.self, from: encoded) {
                    #expect(fast == expected)
                } else {
                    declined += 1
                }
            }
        }
        // Only objects with an escaped key and integers written with an exponent are left to JSONDecoder.
        #expect(declined < 500)
    }

    @Test func everyScalarTypeIsReadInOnePass() throws {
        let value = Scalars(
            text: "päy \"quoted\" \\ 😀 \n", flag: true, int: -42, int8: -128, int16: 32_767, int32: -7, int64: .min,
            uint: 7, uint8: 255, uint64: .max, double: 0.1, date: Date(timeIntervalSince1970: 1_765_000_000.25),
            data: Data([0, 1, 2, 250, 255]), optional: nil, missing: nil, list: [1, 2, 3], nested: ["a": [1.5, -2]],
            values: [.integer(3), .number(2.5), .string("x"), .null, .object(["k": .bool(false)])])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let encoded = try encoder.encode(value)
        #expect(try Self.foundation().decode(Scalars.self, from: encoded) == value)
        #expect(Self.decoder.decodedInOnePass(Scalars.self, from: encoded) == value)
    }

    @Test func codingPathsAreJSONDecodersPaths() throws {
        let document = Data(#"{"a":{"b":[1,{"c":null},[true]]},"d":"x"}"#.utf8)
        let expected = try Self.foundation().decode(Recorder.self, from: document).paths
        #expect(Self.decoder.decodedInOnePass(Recorder.self, from: document)?.paths == expected)
        #expect(expected.contains("a.b.Index 1.c"))
    }

    /// Documents the one-pass read declines: each is decided by JSONDecoder, success or error.
    @Test(arguments: [
        #"{"value":1,"value":2}"#,  // a repeated key
        #"{"valu\u0065":1}"#,  // an escaped key
        "\u{FEFF}{\"value\":1}",  // a byte-order mark
        #"{"value":1.0}"#,  // an integer written with a fraction
        #"{"value":1e2}"#,  // an integer written with an exponent
        #"{"value":1.5}"#,  // no integer
        #"{"value":99999999999999999999}"#,  // out of range
        #"{"value":01}"#,  // a leading zero
        #"{"value":-}"#,
        #"{"value":1,}"#,  // a trailing comma
        #"{"value":"1"}"#,  // a string for a number
        #"{"value":null}"#,
        #"{}"#,
        #"{"value":1} x"#,
    ])
    func declinedOrWrongDocumentsGetJSONDecodersAnswer(_ text: String) throws {
        struct Holder: Codable, Equatable { var value: Int }
        let data = Data(text.utf8)
        let expected = Result { try Self.foundation().decode(Holder.self, from: data) }
        let actual = Result { try Self.decoder.decode(Holder.self, from: data) }
        switch (expected, actual) {
        case (.success(let a), .success(let b)): #expect(a == b)
        case (.failure(let a), .failure(let b)): #expect(String(describing: a) == String(describing: b))
        default: Issue.record("JSONDecoder: \(expected), one pass: \(actual)")
        }
    }

    @Test func aValueThatCatchesErrorsStillGetsJSONDecodersAnswer() throws {
        // JSONValue tries kinds in turn; an integer written `1.0` must come out as JSONDecoder reads it.
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        for text in [
            "1.0", "[1.0, 2e0, 3]", #"{"n":-0.0,"m":1E+2}"#, "1e400", "1e-400", "[2.5e-310, -1e-320]",
            "123456789012345678901234567890", "0.1e1", "\"\\ud800\"", deep,
        ] {
            let data = Data(text.utf8)
            let expected = Result { try Self.foundation().decode(JSONValue.self, from: data) }
            let actual = Result { try Self.decoder.decode(JSONValue.self, from: data) }
            #expect((try? expected.get()) == (try? actual.get()), "\(text)")
            if case .failure(let a) = expected, case .failure(let b) = actual {
                #expect(String(describing: a) == String(describing: b), "\(text)")
            }
        }
        #expect(Self.decoder.decodedInOnePass(JSONValue.self, from: Data("1.0".utf8)) == nil)
        #expect(Self.decoder.decodedInOnePass(JSONValue.self, from: Data("1.5".utf8)) == .number(1.5))
    }

    @Test func invalidUTF8IsLeftToJSONDecoder() throws {
        // {"value":"a\xFFb"} and {"value":"é"} with é's second byte cut off.
        for bytes in [
            Array(#"{"value":"a"#.utf8) + [0xFF] + Array(#"b"}"#.utf8),
            Array(#"{"value":""#.utf8) + [0xC3] + Array(#""}"#.utf8),
        ] {
            let data = Data(bytes)
            #expect(Self.decoder.decodedInOnePass([String: String].self, from: data) == nil)
            #expect(throws: DecodingError.self) { try Self.decoder.decode([String: String].self, from: data) }
            #expect(throws: DecodingError.self) { try Self.foundation().decode([String: String].self, from: data) }
        }
        // A key that is not UTF-8: JSONDecoder refuses the object even though no value asks for that key; an
        // unread value that is not UTF-8 it reads past.
        struct Holder: Decodable, Equatable { var value: Int }
        let badKey = Data(Array(#"{"value":1,""#.utf8) + [0xFF] + Array(#"":2}"#.utf8))
        #expect(Self.decoder.decodedInOnePass(Holder.self, from: badKey) == nil)
        #expect(throws: DecodingError.self) { try Self.foundation().decode(Holder.self, from: badKey) }
        #expect(throws: DecodingError.self) { try Self.decoder.decode(Holder.self, from: badKey) }
        let badValue = Data(Array(#"{"value":1,"other":""#.utf8) + [0xFF] + Array(#""}"#.utf8))
        #expect(try Self.foundation().decode(Holder.self, from: badValue) == Holder(value: 1))
        #expect(Self.decoder.decodedInOnePass(Holder.self, from: badValue) == Holder(value: 1))
        let accented = Data(#"{"value":"é漢😀"}"#.utf8)
        #expect(Self.decoder.decodedInOnePass([String: String].self, from: accented) == ["value": "é漢😀"])
    }

    @Test func aLargeObjectIsReadByIndexAsJSONDecoderReadsIt() throws {
        // 20,000 members: a dictionary decodes each by key, which a scan per key would make quadratic.
        let members = (0..<20_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let data = Data("{\(members)}".utf8)
        let expected = try Self.foundation().decode([String: Int].self, from: data)
        #expect(Self.decoder.decodedInOnePass([String: Int].self, from: data) == expected)
        #expect(expected.count == 20_000)
    }

    @Test func negativeZeroIsJSONDecodersNegativeZero() throws {
        let zero = try #require(Self.decoder.decodedInOnePass([Double].self, from: Data("[-0, 0]".utf8)))
        #expect(zero.map(\.sign) == [.minus, .plus])
        #expect(try Self.foundation().decode([Double].self, from: Data("[-0, 0]".utf8)).map(\.sign) == [.minus, .plus])
        #expect(Self.decoder.decodedInOnePass([UInt].self, from: Data("[-0]".utf8)) == nil)
        // Underflow, a subnormal, an integer beyond 2^64 and a fraction with an exponent, read as doubles.
        let edges = Data("[2.5e-310, -1e-320, 123456789012345678901234567890, 0.1e1, 9007199254740993, 0e-999]".utf8)
        let doubles = try #require(Self.decoder.decodedInOnePass([Double].self, from: edges))
        #expect(
            doubles.map(\.bitPattern) == (try Self.foundation().decode([Double].self, from: edges)).map(\.bitPattern))
        // JSONDecoder refuses a number that underflows to zero, and so does the one-pass read.
        #expect(Self.decoder.decodedInOnePass([Double].self, from: Data("[1e-400]".utf8)) == nil)
        #expect(throws: DecodingError.self) { try Self.decoder.decode([Double].self, from: Data("[1e-400]".utf8)) }
        let unsigned = Result { try Self.decoder.decode([UInt].self, from: Data("[-0]".utf8)) }
        let foundation = Result { try Self.foundation().decode([UInt].self, from: Data("[-0]".utf8)) }
        #expect((try? unsigned.get()) == (try? foundation.get()))
    }
}
