import Foundation
import ProviderKit
import Testing

@testable import SwitchyardHTTP

/// The OpenAPI resource: read from the bundle beside the executable, every `$ref` resolves, and every
/// documented example matches the schema it illustrates.
@Suite struct OpenAPIExampleTests {
    /// One documented example and the schema it must match.
    struct Example {
        var location: String
        var value: JSONValue
        var schema: JSONValue
    }

    static func document() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: OpenAPIDocument.load())
    }

    /// Every example in `node`: a media type's (or parameter's) `example` and `examples` against its
    /// `schema`, and a schema's own `examples` against that schema.
    static func examples(in node: JSONValue, at path: String = "#", validator: SchemaSubset) -> [Example] {
        switch node {
        case .array(let items):
            return items.enumerated().flatMap {
                examples(in: $0.element, at: "\(path)/\($0.offset)", validator: validator)
            }
        case .object(let members):
            var found: [Example] = []
            if let schema = members["schema"] {
                if let value = members["example"] {
                    found.append(Example(location: path, value: value, schema: schema))
                }
                for (name, entry) in (members["examples"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                    let resolved = entry["$ref"]?.stringValue.flatMap(validator.resolve) ?? entry
                    if let value = resolved["value"] {
                        found.append(Example(location: "\(path)/examples/\(name)", value: value, schema: schema))
                    }
                }
            } else if case .array(let values) = members["examples"] {
                for (index, value) in values.enumerated() {
                    found.append(Example(location: "\(path)/examples/\(index)", value: value, schema: node))
                }
            }
            for (key, child) in members.sorted(by: { $0.key < $1.key }) where key != "example" && key != "examples" {
                found += examples(in: child, at: "\(path)/\(key)", validator: validator)
            }
            return found
        default:
            return []
        }
    }

    /// Every `$ref` string in `node`, with where it stands.
    static func references(in node: JSONValue, at path: String = "#") -> [(String, String)] {
        switch node {
        case .array(let items):
            return items.enumerated().flatMap { references(in: $0.element, at: "\(path)/\($0.offset)") }
        case .object(let members):
            return members.flatMap { key, child in
                key == "$ref"
                    ? child.stringValue.map { [(path, $0)] } ?? [] : references(in: child, at: "\(path)/\(key)")
            }
        default:
            return []
        }
    }

    @Test func everyDocumentedExampleMatchesItsSchema() throws {
        let document = try Self.document()
        let validator = SchemaSubset(document: document)
        let examples = Self.examples(in: document, validator: validator)
        // The shared responses carry the examples; the error and the payment at least.
        let locations = Set(examples.map(\.location))
        for response in ["Error", "Payment"] {
            #expect(locations.contains { $0.hasPrefix("#/components/responses/\(response)/content/application/json") })
        }
        #expect(examples.count >= 10)
        for example in examples {
            let problems = validator.problems(example.value, example.schema)
            #expect(problems.isEmpty, "\(example.location): \(problems)")
        }
    }

    @Test func aBrokenExampleIsRefused() throws {
        let document = try Self.document()
        let validator = SchemaSubset(document: document)
        let media = try #require(validator.resolve("#/components/responses/Payment/content/application~1json"))
        let schema = try #require(media["schema"])
        guard case .object(var payment) = try #require(media["example"]) else {
            Issue.record("the payment example is not an object")
            return
        }
        #expect(validator.problems(.object(payment), schema).isEmpty)
        payment["amount"] = .string("1234")
        payment["status"] = .string("paid")
        payment["refunds"] = .array([.object(["id": .string("re_1")])])
        payment.removeValue(forKey: "currency")
        let problems = validator.problems(.object(payment), schema).joined(separator: "\n")
        #expect(problems.contains("/amount"))
        #expect(problems.contains("/status"))
        #expect(problems.contains("/refunds/0"))
        #expect(problems.contains("currency is missing"))

        let error = try #require(validator.resolve("#/components/schemas/Error"))
        let extra: JSONValue = .object([
            "error": .object(["code": .string("x"), "message": .string("y"), "stack": .string("z")])
        ])
        #expect(validator.problems(extra, error).contains { $0.contains("stack is not allowed") })
        #expect(
            validator.problems(.object(["error": .object(["code": .string("x")])]), error) == [
                "/error: message is missing"
            ])
    }

    @Test func everyReferenceResolves() throws {
        let document = try Self.document()
        let validator = SchemaSubset(document: document)
        let references = Self.references(in: document)
        #expect(references.count > 100)
        for (location, reference) in references {
            #expect(validator.resolve(reference) != nil, "\(location): \(reference)")
        }
    }

    @Test func theDocumentIsReadFromTheBundleBesideTheExecutable() throws {
        let document = try Self.document()
        #expect(document["openapi"] == .string("3.1.0"))
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        #expect(throws: OpenAPIDocument.Missing.self) { try OpenAPIDocument.read(besideExecutableIn: elsewhere) }
        do {
            _ = try OpenAPIDocument.read(besideExecutableIn: elsewhere)
        } catch {
            #expect(error.description.contains(elsewhere.path + "/Switchyard_SwitchyardHTTP.resources/openapi.json"))
            #expect(error.description.contains("install the Switchyard_SwitchyardHTTP.resources directory"))
        }
    }
}
