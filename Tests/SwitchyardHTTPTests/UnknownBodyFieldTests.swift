import Foundation
import SwitchyardCore
import Testing

@testable import SwitchyardHTTP

/// Request bodies in a version that refuses unknown fields: the first field no reader asks for is named by
/// its JSON path; free-form objects and dates are read as the API reads them; older versions ignore them.
struct UnknownBodyFieldTests {
    struct Body: Decodable {
        struct Customer: Decodable {
            var email: String
            var name: String?
        }

        var amount: MinorUnits
        var customer: Customer?
        var items: [Customer]?
        var metadata: [String: String]?
        var expiresAt: Date?

        enum CodingKeys: String, CodingKey {
            case amount, customer, items, metadata
            case expiresAt = "expires_at"
        }
    }

    static func decode(_ json: String, in version: APIVersion?) throws -> Body {
        try JSONBody(Data(json.utf8), version: version).decode(Body.self)
    }

    static func refusal(_ json: String) -> APIError? {
        do {
            _ = try decode(json, in: .v2026_12_01)
            return nil
        } catch {
            return error as? APIError
        }
    }

    @Test func theNewVersionNamesTheFirstUnknownFieldByItsPath() {
        let cases: [(String, String)] = [
            (#"{"amount": 1, "metdata": {}}"#, "metdata"),
            (#"{"amount": 1, "customer": {"email": "a@b", "emial": "a@b"}}"#, "customer.emial"),
            (#"{"amount": 1, "items": [{"email": "a"}, {"email": "b", "nmae": "x"}]}"#, "items[1].nmae"),
        ]
        for (json, path) in cases {
            let error = Self.refusal(json)
            #expect(error?.code == .unknownParameter, "\(json)")
            #expect(error?.param == path, "\(json)")
        }
        #expect(Self.refusal(#"{"amount": 1, "metdata": {}}"#)?.message.contains("'metadata'") == true)
    }

    @Test func knownFieldsFreeFormObjectsAndDatesPass() throws {
        let json = #"""
            {"amount": 1, "customer": {"email": "a@b"}, "metadata": {"anything": "x"},
             "expires_at": "2026-12-01T00:00:00Z"}
            """#
        let body = try Self.decode(json, in: .v2026_12_01)
        #expect(body.metadata == ["anything": "x"])
        #expect(body.expiresAt != nil)
    }

    @Test func olderVersionsAndTheOperatorAPIIgnoreUnknownFields() throws {
        let json = #"{"amount": 1, "metdata": {}, "customer": {"email": "a", "emial": "b"}}"#
        #expect(try Self.decode(json, in: .v2026_06_01).amount.value == 1)
        #expect(try Self.decode(json, in: nil).amount.value == 1)
    }

    @Test func badValuesAreReportedBeforeUnknownFields() {
        let error = Self.refusal(#"{"amount": "x", "metdata": {}}"#)
        #expect(error?.code == .invalidAmount)
    }

    @Test func anOperationWithoutFieldsRefusesAnyInTheNewVersionOnly() throws {
        let body = Data(#"{"reason": "x"}"#.utf8)
        #expect(throws: APIError.self) { try JSONBody(body, version: .v2026_12_01).noFields() }
        try JSONBody(Data(), version: .v2026_12_01).noFields()
        try JSONBody(body, version: .v2026_06_01).noFields()
        try JSONBody(Data("not json".utf8), version: .v2026_06_01).noFields()
        #expect(throws: APIError.self) { try JSONBody(Data("not json".utf8), version: .v2026_12_01).noFields() }
    }
}
