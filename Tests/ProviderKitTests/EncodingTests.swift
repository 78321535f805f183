import Foundation
import ProviderKit
import Testing

@Suite("URL, form and JSON encoding for provider APIs")
struct EncodingTests {
    struct Body: Codable, Equatable {
        var returnUrl: String
        var amountValue: Int
        var alpha: Bool
    }

    @Test func jsonBodiesHaveSortedKeysAndUnescapedSlashes() throws {
        let body = Body(returnUrl: "https://m.test/a/b", amountValue: 5, alpha: true)
        let standard = String(decoding: try ProviderJSON.standard.encode(body), as: UTF8.self)
        #expect(standard == #"{"alpha":true,"amountValue":5,"returnUrl":"https://m.test/a/b"}"#)
        let snake = String(decoding: try ProviderJSON(keys: .snakeCase).encode(body), as: UTF8.self)
        #expect(snake == #"{"alpha":true,"amount_value":5,"return_url":"https://m.test/a/b"}"#)
        #expect(ProviderJSON(keys: .snakeCase).decode(Body.self, from: Data(snake.utf8)) == body)
    }

    @Test func unreadableJSONIsNil() throws {
        #expect(ProviderJSON.standard.decode(Body.self, from: nil) == nil)
        #expect(ProviderJSON.standard.decode(Body.self, from: Data()) == nil)
        #expect(ProviderJSON.standard.decode(Body.self, from: Data("{\"alpha\":1".utf8)) == nil)
        #expect(ProviderJSON.standard.object(from: Data("[1]".utf8)) == nil)
        #expect(ProviderJSON.standard.object(from: Data(#"{"a":"b"}"#.utf8)) == ["a": .string("b")])
    }

    @Test func anUnencodableBodyIsABadRequest() {
        #expect(throws: ProviderError(code: "bad_request", message: "the request body cannot be encoded")) {
            try ProviderJSON.standard.encode(Double.nan)
        }
    }

    @Test func urlsJoinAndValidateTheBase() throws {
        #expect(ProviderURL.join(base: "https://p.test/api//", path: "/v1/x") == "https://p.test/api/v1/x")
        let endpoint = try #require(ProviderURL.endpoint(base: " http://127.0.0.1:9/pfx/ ", path: "/v2/pay"))
        #expect(endpoint == ProviderURL.Endpoint(url: "http://127.0.0.1:9/pfx/v2/pay", path: "/pfx/v2/pay"))
        for bad in ["p.test", "ftp://p.test", "https://", "https://p.test?x=1", "https://p.test#f", ""] {
            #expect(ProviderURL.endpoint(base: bad, path: "/x") == nil, "\(bad)")
        }
        #expect(throws: ProviderError.misconfigured("the account's base URL is not an absolute http(s) URL")) {
            try ProviderURL.requireEndpoint(base: "nope", path: "/x")
        }
        #expect(ProviderURL.pathSegment("a/b c?d") == "a%2Fb%20c%3Fd")
        #expect(ProviderURL.pathSegment("att_01-AZ.~") == "att_01-AZ.~")
    }

    @Test func formBodiesDecodeInOrder() throws {
        let pairs = try #require(FormEncoding.pairs("b=1+2&a=%C3%A9&flag&b=3"))
        #expect(pairs.map(\.key) == ["b", "a", "flag", "b"])
        #expect(pairs.map(\.value) == ["1 2", "é", "", "3"])
        #expect(FormEncoding.pairs("x=a+b", plusIsSpace: false)?.first?.value == "a+b")
        #expect(FormEncoding.pairs("=v") == nil)
        #expect(FormEncoding.pairs("k=%zz") == nil)
        #expect(FormEncoding.fields("a=1&b=2") == ["a": "1", "b": "2"])
        #expect(FormEncoding.fields("a=1&a=2") == nil, "a repeated field is not a form to trust")
    }

    @Test func percentEncodingIsQuotePlus() {
        #expect(FormEncoding.quotePlus("a+b/c=d") == "a%2Bb%2Fc%3Dd")
        #expect(FormEncoding.quotePlus("AZaz09_.-~") == "AZaz09_.-~")
        #expect(FormEncoding.quotePlus("a b&é\n") == "a+b%26%C3%A9%0A")
        #expect(FormEncoding.percentDecode("a%2Bb%2fc%3Dd") == "a+b/c=d")
        #expect(FormEncoding.percentDecode("raw+base64/==") == "raw+base64/==")
        #expect(FormEncoding.percentDecode("bad%2") == nil)
        #expect(FormEncoding.percentDecode("bad%zz") == nil)
        #expect(FormEncoding.percentDecode("%FF") == nil, "not UTF-8")
    }

    @Test func providerTextIsSafeToRepeat() {
        #expect(ProviderText.safeCode(" RISK_REJECT ") == "RISK_REJECT")
        #expect(ProviderText.safeCode("a b") == ProviderText.unrecognisedCode)
        #expect(ProviderText.safeCode(String(repeating: "A", count: 65)) == ProviderText.unrecognisedCode)
        #expect(ProviderText.safeCode("  ") == nil && ProviderText.safeCode(nil) == nil)
        #expect(ProviderText.scrub("key sk_123456 leaked", secrets: ["sk_123456", "abc"]) == "key [redacted] leaked")
        #expect(ProviderText.scrub(String(repeating: "x", count: 300), secrets: []).count == 200)
        #expect(ProviderText.digits(" 0768 ") == "0768" && ProviderText.digits("07a8") == nil)
        #expect(ProviderTime.epochSeconds(Date(timeIntervalSince1970: 10.9)) == 10)
    }
}
