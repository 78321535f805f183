import Foundation
import ProviderKit
import SwitchyardCrypto
import Testing

@testable import SwitchyardCore
@testable import SwitchyardHTTP

/// A body is read once (``JSONBody``): its hash and its decoding must be what `JSONDecoder` and
/// `JSONEncoder` gave when each read the bytes again, so stored idempotency keys still match and every
/// field is accepted or refused as before.
struct JSONBodyTests {
    /// The hash as it was taken before the body was read once: the strict scan, `JSONDecoder` into a
    /// ``JSONValue``, `JSONEncoder` with sorted keys; the raw bytes when either refused the body.
    static func hashThroughFoundation(_ data: Data) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var canonical = data
        if (try? StrictJSON.scan(data)) != nil, let value = try? JSONDecoder().decode(JSONValue.self, from: data),
            let encoded = try? encoder.encode(value)
        {
            canonical = encoded
        }
        return Hex.encode(SHA2.sha256([UInt8](canonical)))
    }

    static let awkwardBodies = [
        "", "{}", "[]", "0", "-0", "null", "true", #""a/b""#, "12.0", "1e3", "1.5", "-0.0", "1e20", "1e-400",
        "1e400", "99999999999999999999", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "123456789012345678.5", "9007199254740993.0", "5e-324", "1.7976931348623157e308",
        "0.1", "2.5e-5", "100e-2", #"{"b":1,"a":2,"B":3,"é":4,"a/b":5,"a0":6,"ab":7,"":8}"#,
        #"{"s":"\u0001\u001f\b\f\n\r\t\"\\\/ é 😀 \u00e9 \ud83d\ude00 \u007f"}"#, #"{"a":[1,{"b":[]},"x",null,false]}"#,
        #"{"a":1,"a":2}"#, "{", #"{"a":"\u0000"}"#, "nope", #" { "amount" : 1234 , "currency" : "USD" } "#,
    ]

    @Test func theHashIsFoundationsForAwkwardBodies() {
        for text in Self.awkwardBodies {
            let data = Data(text.utf8)
            #expect(JSONBody(data).requestHash == Self.hashThroughFoundation(data), "\(text)")
        }
    }

    @Test func theHashIsFoundationsForGeneratedDocuments() {
        var random = JSONDocuments(seed: 20_261_204)
        for _ in 0..<400 {
            let document = random.document(depth: 0)
            let first = Data(random.text(document).utf8)
            #expect(
                JSONBody(first).requestHash == Self.hashThroughFoundation(first),
                "\(String(decoding: first, as: UTF8.self))")
            // Another spelling of the same document (other key order, other spacing) is the same request.
            let second = Data(random.text(document).utf8)
            #expect(JSONBody(first).requestHash == JSONBody(second).requestHash)
        }
    }

    struct Probe: Decodable, Equatable {
        var int64: Int64?
        var int: Int?
        var byte: UInt8?
        var double: Double?
        var text: String?
        var flag: Bool?
        var date: Date?
        var url: URL?
        var list: [Int]?
        var map: [String: String]?
        var value: JSONValue?
        var required: Required?

        struct Required: Decodable, Equatable {
            var count: Int
            var name: String
        }
    }

    /// A body decoded as `JSONDecoder` (ISO 8601 dates) decoded it, its errors described as the API
    /// describes them.
    static func decodedThroughFoundation(_ data: Data) -> Result<Probe, APIError> {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return .success(try decoder.decode(Probe.self, from: data))
        } catch let error as DecodingError {
            return .failure(JSONIO.describe(error))
        } catch {
            return .failure(APIError(.invalidJSON, "\(error)"))
        }
    }

    static func decodedOnce(_ data: Data) -> Result<Probe, APIError> {
        do {
            return .success(try JSONBody(data).decode(Probe.self))
        } catch let error as APIError {
            return .failure(error)
        } catch {
            return .failure(APIError(.internalError, "\(error)"))
        }
    }

    @Test func fieldsDecodeAndFailAsWithJSONDecoder() {
        let values = [
            "1", "-1", "0", "12.0", "1e3", "1.5", "300", "255", "-129", "99999999999999999999", "1e20", "-0",
            "9007199254740993.0", "1e-400", "0.1", #""12""#, "true", "null", "[]", "[1,2]", "[1,\"x\"]", "{}",
            #"{"a":"b"}"#, #"{"a":1}"#, #""2026-12-01T00:00:00Z""#, #""2026-12-01T00:00:00.5Z""#,
            #""2026-12-01T01:00:00+01:00""#, #""2026-12-01""#, #""https://shop.example/back?x=1""#, #""""#,
            #"{"count":1,"name":"n"}"#, #"{"count":1}"#, #"{"count":"1","name":"n"}"#, #"{"count":1.5,"name":"n"}"#,
            #"{"count":null,"name":"n"}"#,
        ]
        let fields = [
            "int64", "int", "byte", "double", "text", "flag", "date", "url", "list", "map", "value", "required",
        ]
        for field in fields {
            for value in values {
                let data = Data(#"{"\#(field)":\#(value)}"#.utf8)
                var expected = Self.decodedThroughFoundation(data)
                if field == "double", value == "1e-400" {
                    // Too small for a `Double`: `JSONDecoder` refuses it as a `Double` and reads it as 0 as an
                    // integer; the one reading reads it as 0 everywhere.
                    expected = .success(Probe(double: 0))
                }
                let actual = Self.decodedOnce(data)
                switch (expected, actual) {
                case (.success(let a), .success(let b)):
                    #expect(a == b, "\(field): \(value)")
                case (.failure(let a), .failure(let b)) where a.code == .invalidJSON && a.param == nil:
                    // `JSONDecoder` says only that the body is not valid JSON for a number a field cannot hold
                    // or a date it cannot read; the one reading names the field, or refuses the number.
                    #expect(
                        b.code == .invalidJSON || b.param == field || b.param?.hasPrefix(field + ".") == true,
                        "\(field): \(value): \(b)")
                case (.failure(let a), .failure(let b)):
                    #expect(
                        a.code == b.code && a.param == b.param && a.message == b.message,
                        "\(field): \(value): \(a) / \(b)")
                default:
                    Issue.record("\(field): \(value): JSONDecoder \(expected), read once \(actual)")
                }
            }
        }
    }

    @Test func aFieldThatCannotHoldItsNumberIsNamed() throws {
        let error = #expect(throws: APIError.self) { try JSONBody(Data(#"{"byte":300}"#.utf8)).decode(Probe.self) }
        #expect(error?.code == .invalidField)
        #expect(error?.param == "byte")
    }

    @Test func twoSpellingsOfOneKeyAreOneKeyGivenTwice() {
        // `JSONDecoder` keeps one of the values of "é" and "e\u{301}"; the scan refuses the body.
        #expect(throws: APIError.self) { try JSONBody(Data(#"{"é":1,"e\u0301":2}"#.utf8)).decode(Probe.self) }
    }

    @Test func aRefusedBodyIsRefusedWhenDecodedAndHashedAsItsBytes() {
        let data = Data(#"{"amount":1,"amount":2}"#.utf8)
        let body = JSONBody(data)
        #expect(throws: APIError.self) { try body.decode(Probe.self) }
        #expect(body.requestHash == Hex.encode(SHA2.sha256([UInt8](data))))
    }
}

/// A deterministic generator of JSON documents and of their spellings.
struct JSONDocuments {
    var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    /// A document as a tree of its spelled leaves, so that one document can be spelled again differently.
    indirect enum Node {
        case leaf(String)
        case array([Node])
        case object([(String, Node)])
    }

    mutating func document(depth: Int) -> Node {
        switch depth >= 3 ? below(6) : below(8) {
        case 0: return .leaf(pick(["null", "true", "false"]))
        case 1, 2: return .leaf(number())
        case 3, 4, 5: return .leaf(string())
        case 6: return .array((0..<below(4)).map { _ in document(depth: depth + 1) })
        default:
            var members: [(String, Node)] = []
            var used = Set<String>()
            for _ in 0..<below(5) {
                let key = string()
                guard used.insert(key).inserted else { continue }
                members.append((key, document(depth: depth + 1)))
            }
            return .object(members)
        }
    }

    mutating func number() -> String {
        switch below(6) {
        case 0: return String(Int64(bitPattern: next()))
        case 1: return String(below(2000) - 1000)
        case 2: return "\(below(100)).\(below(1000))"
        case 3: return "\(below(10))e\(pick(["", "+", "-"]))\(below(30))"
        case 4: return pick(["-0", "0.0", "1E2", "12.50", "9007199254740993.0", "1e19", "-9223372036854775808"])
        default: return String(Double(bitPattern: next() & 0x3FEF_FFFF_FFFF_FFFF))
        }
    }

    mutating func string() -> String {
        let pieces = [
            "a", "B", "é", "/", "\\/", "\\\"", "\\\\", "\\n", "\\t", "\\u0001", "\\u001f", "\\u007f",
            "😀", "\\ud83d\\ude00", "\\u00e9", " ", "0", "z", "ab", "A0", "ä",
        ]
        return "\"" + (0..<below(4)).map { _ in pick(pieces) }.joined() + "\""
    }

    mutating func space() -> String { pick(["", "", " ", "\n  ", "\t"]) }

    /// One spelling of `node`: its members in a random order, random white space between tokens.
    mutating func text(_ node: Node) -> String {
        switch node {
        case .leaf(let text): return space() + text + space()
        case .array(let elements): return "[" + elements.map { text($0) }.joined(separator: ",") + space() + "]"
        case .object(var members):
            for index in members.indices.reversed() { members.swapAt(index, below(index + 1)) }
            return "{" + members.map { space() + $0.0 + space() + ":" + text($0.1) }.joined(separator: ",") + space()
                + "}"
        }
    }
}
