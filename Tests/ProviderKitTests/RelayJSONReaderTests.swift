import Foundation
import Testing

@testable import ProviderKit

/// The relay's one-pass reader: what it reads equals what `JSONDecoder` reads, and what it declines
/// `JSONDecoder` still decides.
struct RelayJSONReaderTests {
    private static let pieces = [
        "a", "Z", "0", " ", "/", "\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "漢", "😀", "\u{2028}",
        "Bearer ", "application/json", "%2F", "'",
    ]

    private static func text(_ random: inout SystemRandomNumberGenerator) -> String {
        (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    private static func headers(_ random: inout SystemRandomNumberGenerator) -> [HTTPHeader] {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in HTTPHeader(text(&random), text(&random)) }
    }

    private static func body(_ random: inout SystemRandomNumberGenerator) -> Data? {
        Bool.random(using: &random)
            ? nil
            : Data((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    private static func integer(_ random: inout SystemRandomNumberGenerator) -> Int? {
        [nil, 0, 1, -1, 30_000, Int.max, Int.min, Int.random(in: -1_000_000...1_000_000, using: &random)]
            .randomElement(using: &random)!
    }

    private static func fast<T>(_ data: Data, _ read: (inout RelayJSONReader) -> T?) -> T? {
        RelayJSONReader.read(data, read)
    }

    @Test func everyRequestAndResultTheRelayWritesIsReadBackInOnePass() throws {
        var random = SystemRandomNumberGenerator()
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
        for _ in 0..<400 {
            let request = OutboundRequest(
                method: Self.text(&random), url: Self.text(&random), headers: Self.headers(&random),
                body: Self.body(&random), timeoutMs: Self.integer(&random),
                redactHeaders: (0..<Int.random(in: 0...2, using: &random)).map { _ in Self.text(&random) })
            let result = OutboundResult(
                kind: [.response, .notSent, .noResponse].randomElement(using: &random)!,
                status: Self.integer(&random), headers: Self.headers(&random), body: Self.body(&random),
                reason: Bool.random(using: &random) ? nil : Self.text(&random))
            for encoded in [try PluginJSON.encode(request), try pretty.encode(request)] {
                #expect(Self.fast(encoded) { $0.outboundRequest() } == request)
                #expect(OutboundRequest.relayed(encoded) == request)
            }
            for encoded in [try PluginJSON.encode(result), try pretty.encode(result)] {
                #expect(Self.fast(encoded) { $0.outboundResult() } == result)
                #expect(OutboundResult.relayed(encoded) == result)
            }
        }
    }

    @Test func documentsOutsideTheSubsetMeanWhatJSONDecoderSays() {
        let requestBase =
            #""method":"GET","url":"https://p.example/x","headers":[{"name":"a","value":"b"}],"redactHeaders":[]"#
        let requests = [
            "{\(requestBase)}",
            "{\(requestBase),\"unknown\":1}",
            "{\(requestBase),\"method\":\"POST\"}",
            #"{"method":"GET","url":"u","headers":[]}"#,
            #"{"method":null,"url":"u","headers":[],"redactHeaders":[]}"#,
            "{\(requestBase),\"timeoutMs\":1e3}",
            "{\(requestBase),\"timeoutMs\":1.0}",
            "{\(requestBase),\"timeoutMs\":-0}",
            "{\(requestBase),\"timeoutMs\":01}",
            "{\(requestBase),\"timeoutMs\":99999999999999999999}",
            "{\(requestBase),\"timeoutMs\":null,\"body\":null}",
            "{\(requestBase),\"body\":\"not base64!\"}",
            "{\(requestBase),\"body\":\"aGk=\"}",
            #"{"method":"G\u0045T","url":"\ud83d\ude00","headers":[],"redactHeaders":["\/x"]}"#,
            #"{"method":"GET","url":"\ud83d","headers":[],"redactHeaders":[]}"#,
            #"{"method":"GET","url":"\udc00x","headers":[],"redactHeaders":[]}"#,
            #"{"method":"G\xT","url":"u","headers":[],"redactHeaders":[]}"#,
            "{\"method\":\"G\tT\",\"url\":\"u\",\"headers\":[],\"redactHeaders\":[]}",
            "{\(requestBase)} x",
            " {\(requestBase)} \n",
            "{\(requestBase),\"headers\":[{\"name\":\"a\"}]}",
            #"{"method":"GET","url":"u","headers":[{"name":"a","value":"b","x":1}],"redactHeaders":[]}"#,
            "[]", "", "{", "null",
        ]
        for document in requests {
            let data = Data(document.utf8)
            #expect(
                OutboundRequest.relayed(data) == (try? JSONDecoder().decode(OutboundRequest.self, from: data)),
                "\(document)")
        }
        let invalidUTF8 =
            Data(#"{"method":"GET","url":""#.utf8) + Data([0xC3, 0x28])
            + Data(#"","headers":[],"redactHeaders":[]}"#.utf8)
        #expect(Self.fast(invalidUTF8) { $0.outboundRequest() } == nil)
        #expect(OutboundRequest.relayed(invalidUTF8) == nil)
        // What the reader declines, it declines: the unknown key goes to JSONDecoder, which ignores it.
        #expect(Self.fast(Data("{\(requestBase),\"unknown\":1}".utf8)) { $0.outboundRequest() } == nil)
        #expect(OutboundRequest.relayed(Data("{\(requestBase),\"unknown\":1}".utf8))?.method == "GET")

        let results = [
            #"{"kind":"response","status":200,"headers":[],"body":"e30="}"#,
            #"{"kind":"teapot","headers":[]}"#,
            #"{"kind":"notSent","headers":[],"reason":"refused","status":null}"#,
            #"{"kind":"noResponse"}"#,
            #"{"kind":"response","status":-1,"headers":[],"reason":null,"body":null}"#,
            #"{"kind":"response","status":2e2,"headers":[]}"#,
        ]
        for document in results {
            let data = Data(document.utf8)
            #expect(
                OutboundResult.relayed(data) == (try? JSONDecoder().decode(OutboundResult.self, from: data)),
                "\(document)")
        }
    }
}
