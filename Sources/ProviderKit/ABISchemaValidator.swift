#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A small JSON Schema (draft 2020-12) checker for the plugin ABI's schema files (`switchyard plugins sdk`
/// writes them beside the C header): `type`, `enum`, `const`, `pattern`, `properties`, `required`,
/// `additionalProperties`, `items`, `anyOf`, `oneOf` and `$ref` (to another file and/or a JSON pointer).
/// Annotations are ignored.
///
/// The schemas allow keys they do not list, for forward compatibility; a strict validator does not (an
/// object checked against a schema with `properties` and no `additionalProperties` may not carry other
/// keys), which is how ProviderKit's own tests hold the schemas to what ProviderKit really sends.
public struct ABISchemaValidator: Sendable {
    /// Whether keys a schema does not list are problems.
    public let strict: Bool
    private let load: @Sendable (String) throws -> Data

    /// A validator reading schema files by their path relative to the schema directory (`common.json`,
    /// `flows/authorize.reply.json`).
    public init(strict: Bool = false, load: @escaping @Sendable (String) throws -> Data) {
        self.strict = strict
        self.load = load
    }

    /// The problems of `value` against the schema file `name`; empty when valid.
    public func problems(_ value: JSONValue, against name: String) throws -> [String] {
        var problems: [String] = []
        try check(value, try read(name), file: name, at: "$", into: &problems)
        return problems
    }

    /// Encodes `value` with the ABI's encoder and checks it.
    public func problems<T: Encodable>(encoding value: T, against name: String) throws -> [String] {
        let data = try PluginJSON.encoder().encode(value)
        return try problems(try JSONDecoder().decode(JSONValue.self, from: data), against: name)
    }

    private func read(_ name: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: load(name))
    }

    private func resolve(_ reference: String, from file: String) throws -> (JSONValue, String) {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        var target = file
        if !parts[0].isEmpty {
            let base = URL(fileURLWithPath: "/schema/" + file).deletingLastPathComponent()
            let path = URL(fileURLWithPath: String(parts[0]), relativeTo: base).standardizedFileURL.path
            guard path.hasPrefix("/schema/") else {
                throw ABISchemaError("$ref \(reference) leaves the schema directory")
            }
            target = String(path.dropFirst("/schema/".count))
        }
        var node = try read(target)
        if parts.count == 2 {
            for token in parts[1].split(separator: "/") {
                guard let next = node[String(token)] else { throw ABISchemaError("unresolvable $ref \(reference)") }
                node = next
            }
        }
        return (node, target)
    }

    private func check(
        _ value: JSONValue, _ schema: JSONValue, file: String, at path: String, into problems: inout [String]
    )
        throws
    {
        if case .bool(let accepts) = schema {
            if !accepts { problems.append("\(path): no value allowed") }
            return
        }
        guard let keywords = schema.objectValue else { throw ABISchemaError("schema at \(path) is not an object") }
        if let reference = keywords["$ref"]?.stringValue {
            let (target, targetFile) = try resolve(reference, from: file)
            try check(value, target, file: targetFile, at: path, into: &problems)
        }
        if let types = keywords["type"] {
            let allowed: [String]
            if case .array(let list) = types {
                allowed = list.compactMap(\.stringValue)
            } else {
                allowed = [types.stringValue ?? ""]
            }
            if !allowed.contains(where: { Self.matches(value, type: $0) }) {
                problems.append("\(path): expected \(allowed.joined(separator: " or ")), got \(Self.typeName(value))")
                return
            }
        }
        if case .array(let options) = keywords["enum"], !options.contains(value) {
            problems.append("\(path): \(value) is not one of the allowed values")
        }
        if let constant = keywords["const"], constant != value, !(Self.sameNumber(constant, value)) {
            problems.append("\(path): expected \(constant)")
        }
        if let pattern = keywords["pattern"]?.stringValue, let text = value.stringValue {
            let expression = try Regex(pattern).matchingSemantics(.unicodeScalar)
            if (try expression.firstMatch(in: text)) == nil {
                problems.append("\(path): \(text) does not match \(pattern)")
            }
        }
        if case .array(let branches) = keywords["anyOf"] {
            let passing = try branches.filter { branch in
                var scratch: [String] = []
                try check(value, branch, file: file, at: path, into: &scratch)
                return scratch.isEmpty
            }
            if passing.isEmpty { problems.append("\(path): matches none of anyOf") }
        }
        if case .array(let branches) = keywords["oneOf"] {
            let passing = try branches.filter { branch in
                var scratch: [String] = []
                try check(value, branch, file: file, at: path, into: &scratch)
                return scratch.isEmpty
            }
            if passing.count != 1 { problems.append("\(path): matches \(passing.count) branches of oneOf, not 1") }
        }
        if let object = value.objectValue {
            try checkObject(object, keywords, file: file, at: path, into: &problems)
        }
        if case .array(let items) = value, let itemSchema = keywords["items"] {
            for (index, item) in items.enumerated() {
                try check(item, itemSchema, file: file, at: "\(path)[\(index)]", into: &problems)
            }
        }
    }

    private func checkObject(
        _ object: [String: JSONValue], _ keywords: [String: JSONValue], file: String, at path: String,
        into problems: inout [String]
    ) throws {
        if case .array(let required) = keywords["required"] {
            for key in required.compactMap(\.stringValue) where object[key] == nil {
                problems.append("\(path): missing required \(key)")
            }
        }
        let properties = keywords["properties"]?.objectValue ?? [:]
        for (key, member) in object.sorted(by: { $0.key < $1.key }) {
            if let propertySchema = properties[key] {
                try check(member, propertySchema, file: file, at: "\(path).\(key)", into: &problems)
            } else if let additional = keywords["additionalProperties"] {
                try check(member, additional, file: file, at: "\(path).\(key)", into: &problems)
            } else if strict && keywords["properties"] != nil {
                problems.append("\(path): \(key) is not in the schema")
            }
        }
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("integer", .integer), ("number", .integer), ("number", .number):
            return true
        case ("integer", .number(let number)):
            return number.rounded() == number
        default:
            return false
        }
    }

    private static func sameNumber(_ a: JSONValue, _ b: JSONValue) -> Bool {
        guard let x = a.integerValue, let y = b.integerValue else { return false }
        return x == y
    }

    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A schema file that cannot be read or resolved.
public struct ABISchemaError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
