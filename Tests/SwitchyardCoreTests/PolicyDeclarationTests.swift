import Foundation
import Testing

@testable import SwitchyardCore

/// The platform policy's keys are declared once (``PolicySection/fields``): the reference in
/// docs/operations.md, the decoding and the unknown-key refusal all come from those declarations.
struct PolicyDeclarationTests {
    static let operations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/operations.md")

    /// The text of `document` between `<!-- name -->` and `<!-- /name -->`.
    static func marked(_ name: String, in document: String) -> String? {
        guard let start = document.range(of: "<!-- \(name) -->\n"),
            let end = document.range(of: "<!-- /\(name) -->", range: start.upperBound..<document.endIndex)
        else { return nil }
        return String(document[start.upperBound..<end.lowerBound]).trimmingCharacters(in: .newlines)
    }

    /// A document setting every declared key to the default its declaration shows.
    static var everyKeyDocument: String {
        let sections = PlatformPolicy.sections.map { section in
            let keys = section.fields.map { "\"\($0.name)\": \($0.defaultText)" }
            return "\"\(section.name)\": {" + keys.joined(separator: ", ") + "}"
        }
        return "{" + sections.joined(separator: ", ") + "}"
    }

    @Test func theReferenceTableInTheDocsIsRenderedFromTheDeclarations() throws {
        let text = try String(contentsOf: Self.operations, encoding: .utf8)
        let table = try #require(Self.marked("policy-keys", in: text), "docs/operations.md has no policy-keys table")
        #expect(
            table == PlatformPolicy.referenceTable, "docs/operations.md should hold:\n\(PlatformPolicy.referenceTable)")
    }

    @Test func everyDeclaredKeyIsReadAndDecodesToItsDeclaredDefault() throws {
        let data = Data(Self.everyKeyDocument.utf8)
        #expect(try UnknownKeys.find(in: data, readBy: [PlatformPolicy.self]) == [])
        var decoded = try JSONDecoder().decode(PlatformPolicy.self, from: data)
        // The database keys show the server's defaults for an unset key; set, they are the same values.
        #expect(decoded.database.keepalive == PlatformPolicy.Database().keepalive)
        #expect(decoded.database.poolSize(default: 8) == PlatformPolicy.Database().poolSize(default: 8))
        decoded.database = PlatformPolicy.Database()
        #expect(decoded == PlatformPolicy())
        #expect(decoded.problem() == nil)
        let paths = PlatformPolicy.declaredKeys.map { "\($0.section).\($0.key.name)" }
        #expect(paths.count == Set(paths).count)
        #expect(paths.count > 80)
    }

    @Test func anUndeclaredKeyIsRefusedWithItsPathInEverySection() throws {
        for section in PlatformPolicy.sections {
            let data = Data(#"{"\#(section.name)": {"not_a_key": 1}}"#.utf8)
            #expect(
                try UnknownKeys.find(in: data, readBy: [PlatformPolicy.self]).map(\.path) == [
                    "\(section.name).not_a_key"
                ])
        }
    }

    @Test func aValueOutOfItsDeclaredRangeIsRefusedNamingTheKey() throws {
        for section in PlatformPolicy.sections {
            for field in section.fields
            where ["integer", "number"].contains(field.type) && field.rangeText?.hasSuffix("(held within)") == false {
                let data = Data(#"{"\#(section.name)": {"\#(field.name)": -1000000000000}}"#.utf8)
                let refused: String?
                do {
                    refused = try JSONDecoder().decode(PlatformPolicy.self, from: data).problem()
                } catch DecodingError.dataCorrupted(let context) {
                    refused = context.debugDescription
                } catch {
                    refused = "\(error)"
                }
                let path = "\(section.name).\(field.name)"
                #expect(
                    refused?.contains(path) == true, "\(path) accepted -1000000000000: \(String(describing: refused))")
            }
        }
    }

    @Test func valuesAreWrittenAsTheJSONTheyDecodeFrom() throws {
        let values = ["plain", #"a "quoted" \ host"#]
        for value in values {
            #expect(try JSONDecoder().decode(String.self, from: Data(value.policyText.utf8)) == value)
        }
        #expect(try JSONDecoder().decode([String].self, from: Data(values.policyText.utf8)) == values)
        #expect(0.05.policyText == "0.05" && 100.0.policyText == "100" && [1, 2].policyText == "[1, 2]")
    }
}
