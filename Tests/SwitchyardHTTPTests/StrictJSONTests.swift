import Foundation
import Testing

@testable import SwitchyardHTTP

/// The strict scan every JSON body passes before it is decoded.
struct StrictJSONTests {
    func code(_ text: String) -> String? {
        do {
            _ = try StrictJSON.scan(Data(text.utf8))
            return nil
        } catch {
            return error.code.rawValue
        }
    }

    func message(_ text: String) -> String {
        do {
            _ = try StrictJSON.scan(Data(text.utf8))
            return ""
        } catch {
            return error.message
        }
    }

    @Test func validJSONPasses() {
        for text in [
            "{}", "[]", "0", "-0", "1.5", "-1e-3", "\"\"", "true", "false", "null",
            " {\"a\" : [1, 2.0, {\"b\": null}]} ",
            #"{"a":"\u00e9\ud83d\ude00\n\t\"\\\/"}"#, #"{"a":1,"b":{"a":2}}"#, #"[{"a":1},{"a":2}]"#,
            "{\"é\":\"😀\"}",
        ] {
            #expect(code(text) == nil, "\(text)")
        }
    }

    @Test func invalidJSONIsInvalidJSON() {
        for text in [
            "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "'a'", "01", "1.", ".5", "1e", "-", "+1",
            "tru", "nul", "NaN", "Infinity", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"",
            "\"\\ud800\\u0041\"", "{} {}", "\u{FEFF}{}", "\"a\nb\"", "[1 2]",
        ] {
            #expect(code(text) == "invalid_json", "\(text.debugDescription)")
        }
        #expect(throws: APIError.self) { try StrictJSON.scan(Data([0x22, 0xC3, 0x28, 0x22])) }
    }

    @Test func aDuplicateKeyIsRefusedNamingTheField() {
        #expect(code(#"{"amount":1,"amount":2}"#) == "duplicate_key")
        #expect(code(#"{"a":{"b":1,"\u0062":2}}"#) == "duplicate_key")
        #expect(message(#"{"rules":[{"name":"x","name":"y"}]}"#).contains("'rules.0.name'"))
        #expect(code(#"{"a":{"b":1},"c":{"b":2}}"#) == nil)
    }

    @Test func aNULCharacterIsInvalidTextNamingTheField() {
        #expect(code(#"{"reference":"a\u0000b"}"#) == "invalid_text")
        #expect(message(#"{"reference":"a\u0000b"}"#).contains("'reference'"))
        #expect(code("{\"reference\":\"a\u{0}b\"}") == "invalid_text")
        #expect(code(#"{"payment_data":{"x":["ok","\u0000"]}}"#) == "invalid_text")
        #expect(message(#"{"payment_data":{"x":["ok","\u0000"]}}"#).contains("'payment_data.x.1'"))
        #expect(code(#"{"a\u0000":1}"#) == "invalid_text")
        #expect(code(#""\u0000""#) == "invalid_text")
        #expect(code(#"{"a":"\u0001"}"#) == nil)
    }

    @Test func nestingIsLimited() {
        let deep =
            String(repeating: "[", count: StrictJSON.maximumDepth)
            + String(
                repeating: "]", count: StrictJSON.maximumDepth)
        #expect(code(deep) == nil)
        let deeper = "[" + deep + "]"
        #expect(code(deeper) == "invalid_json")
        let huge = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(code(huge) == "invalid_json")
    }

    @Test func numbersWithAFractionOrExponentAreRecordedByField() throws {
        let report = try StrictJSON.scan(
            Data(#"{"amount":12.0,"n":1,"rules":[{"match":{"min_amount":1e3,"max_amount":5}}],"x":-2E-1}"#.utf8)
        ).report
        #expect(report.nonIntegerNumbers == ["amount", "rules.0.match.min_amount", "x"])
    }

    @Test func amountsMustBeIntegerLiterals() throws {
        struct Body: Decodable {
            var amount: MinorUnits
        }
        #expect(try JSONIO.decode(Body.self, from: Data(#"{"amount":1200}"#.utf8)).amount.value == 1200)
        for text in [#"{"amount":12.0}"#, #"{"amount":1e3}"#, #"{"amount":1200E0}"#, #"{"amount":12.5}"#] {
            #expect(throws: APIError.self, "\(text)") { try JSONIO.decode(Body.self, from: Data(text.utf8)) }
            do {
                _ = try JSONIO.decode(Body.self, from: Data(text.utf8))
            } catch let error as APIError {
                #expect(error.code == .invalidAmount && error.status == .badRequest, "\(text)")
            }
        }
        #expect(throws: APIError.self) { try JSONIO.decode(Body.self, from: Data(#"{"amount":"12"}"#.utf8)) }
        #expect(throws: APIError.self) {
            try JSONIO.decode(Body.self, from: Data(#"{"amount":99999999999999999999}"#.utf8))
        }
    }

    @Test func queryAndPathNULsAreFound() {
        #expect(InputMiddleware.containsNUL("a%00b"))
        #expect(InputMiddleware.containsNUL("%00"))
        #expect(InputMiddleware.containsNUL("a\u{0}"))
        #expect(!InputMiddleware.containsNUL("a%0"))
        #expect(!InputMiddleware.containsNUL("a%20b%0"))
        #expect(!InputMiddleware.containsNUL("100%"))
        #expect(throws: APIError.self) { try InputMiddleware.checkTarget(path: "/v1/payments", query: "reference=%00") }
        #expect(throws: APIError.self) { try InputMiddleware.checkTarget(path: "/v1/x%00", query: nil) }
        #expect(throws: Never.self) { try InputMiddleware.checkTarget(path: "/v1/payments", query: "reference=a%20") }
    }

    @Test func contentTypesAreJSONOrRefused() {
        for accepted in [
            nil, "application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.api+json",
            "application/problem+json;charset=utf-8",
        ] as [String?] {
            #expect(throws: Never.self, "\(accepted ?? "-")") { try InputMiddleware.checkContentType(accepted) }
        }
        for refused in [
            "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/jsonx", "json",
            "/+json", "+json", "", "application/xml",
        ] {
            #expect(throws: APIError.self, "\(refused)") { try InputMiddleware.checkContentType(refused) }
        }
        #expect(InputMiddleware.isNotification(path: "/notifications/abc"))
        #expect(InputMiddleware.isNotification(path: "//notifications/abc"))
        #expect(!InputMiddleware.isNotification(path: "/v1/notifications"))
    }
}
