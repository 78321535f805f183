import Foundation
import ProviderKit

/// A validator for the part of JSON Schema the OpenAPI document uses: `$ref` into the document, `type`
/// (one or several), `const`, `enum`, `nullable`, `properties`, `required`, `additionalProperties`,
/// `items`, `allOf`/`anyOf`/`oneOf`, `minimum`/`maximum`, `minLength`/`maxLength` and `pattern`. A keyword
/// outside that set is reported as a problem, so a schema never passes because its keyword was ignored.
struct SchemaSubset {
    /// The whole document, which `$ref`s point into.
    let document: JSONValue

    /// Keywords that only annotate a schema.
    static let annotations: Set<String> = [
        "description", "format", "title", "example", "examples", "deprecated", "readOnly", "writeOnly",
    ]
    static let keywords: Set<String> = [
        "$ref", "type", "const", "enum", "nullable", "properties", "required", "additionalProperties", "items",
        "allOf", "anyOf", "oneOf", "minimum", "maximum", "minLength", "maxLength", "pattern",
    ]

    /// What `reference` (`#/…`) points to in the document.
    func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node = document
        for token in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node {
            case .object(let members):
                guard let next = members[key] else { return nil }
                node = next
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                node = items[index]
            default: return nil
            }
        }
        return node
    }

    /// Every way `value` (at `path`) breaks `schema`; empty when it conforms.
    func problems(_ value: JSONValue, _ schema: JSONValue, at path: String = "") -> [String] {
        guard case .object(let rules) = schema else {
            return schema == .bool(true) ? [] : ["\(path): the schema is not an object"]
        }
        if rules["nullable"] == .bool(true), value == .null { return [] }
        var found: [String] = []
        for (keyword, rule) in rules.sorted(by: { $0.key < $1.key }) {
            if Self.annotations.contains(keyword) { continue }
            guard Self.keywords.contains(keyword) else {
                found.append("\(path): unsupported keyword \(keyword)")
                continue
            }
            found += check(keyword, rule, value, path, siblings: rules)
        }
        return found
    }

    private func check(
        _ keyword: String, _ rule: JSONValue, _ value: JSONValue, _ path: String, siblings: [String: JSONValue]
    ) -> [String] {
        switch keyword {
        case "$ref":
            guard let target = rule.stringValue.flatMap(resolve) else { return ["\(path): unresolved \(rule)"] }
            return problems(value, target, at: path)
        case "type":
            let names: [String]
            switch rule {
            case .string(let name): names = [name]
            case .array(let items): names = items.compactMap(\.stringValue)
            default: return ["\(path): type is neither a name nor a list"]
            }
            return names.contains { Self.value(value, is: $0) } ? [] : ["\(path): \(value) is not \(names)"]
        case "const":
            return Self.same(value, rule) ? [] : ["\(path): \(value) is not \(rule)"]
        case "enum":
            guard case .array(let allowed) = rule else { return ["\(path): enum is not a list"] }
            return allowed.contains { Self.same(value, $0) } ? [] : ["\(path): \(value) is not one of \(allowed)"]
        case "nullable":
            return []
        case "properties", "required", "additionalProperties":
            guard case .object(let members) = value else { return [] }
            return checkObject(keyword, rule, members, path, named: siblings["properties"]?.objectValue ?? [:])
        case "items":
            guard case .array(let items) = value else { return [] }
            return items.enumerated().flatMap { problems($0.element, rule, at: "\(path)/\($0.offset)") }
        case "allOf", "anyOf", "oneOf":
            guard case .array(let schemas) = rule else { return ["\(path): \(keyword) is not a list"] }
            let results = schemas.map { problems(value, $0, at: path) }
            let passed = results.filter(\.isEmpty).count
            switch keyword {
            case "allOf": return results.flatMap { $0 }
            case "anyOf": return passed > 0 ? [] : ["\(path): matches none of anyOf: \(results.flatMap { $0 })"]
            default: return passed == 1 ? [] : ["\(path): matches \(passed) schemas of oneOf, not exactly 1"]
            }
        case "minimum", "maximum":
            guard let number = Self.number(value), let bound = Self.number(rule) else { return [] }
            let inside = keyword == "minimum" ? number >= bound : number <= bound
            return inside ? [] : ["\(path): \(number) breaks \(keyword) \(bound)"]
        case "minLength", "maxLength":
            guard let text = value.stringValue, let bound = rule.integerValue else { return [] }
            let inside = keyword == "minLength" ? text.count >= bound : text.count <= bound
            return inside ? [] : ["\(path): a string of \(text.count) characters breaks \(keyword) \(bound)"]
        default:  // pattern
            guard let text = value.stringValue, let pattern = rule.stringValue else { return [] }
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return ["\(path): bad \(pattern)"] }
            let range = NSRange(text.startIndex..., in: text)
            return regex.firstMatch(in: text, range: range) == nil ? ["\(path): \(text) does not match \(pattern)"] : []
        }
    }

    private func checkObject(
        _ keyword: String, _ rule: JSONValue, _ members: [String: JSONValue], _ path: String,
        named: [String: JSONValue]
    ) -> [String] {
        switch keyword {
        case "properties":
            guard case .object(let properties) = rule else { return ["\(path): properties is not an object"] }
            return properties.sorted { $0.key < $1.key }.flatMap { name, schema in
                members[name].map { problems($0, schema, at: "\(path)/\(name)") } ?? []
            }
        case "required":
            guard case .array(let names) = rule else { return ["\(path): required is not a list"] }
            return names.compactMap(\.stringValue).filter { members[$0] == nil }.map { "\(path): \($0) is missing" }
        default:  // additionalProperties: the members `properties` does not name
            let additional = members.filter { named[$0.key] == nil }.sorted { $0.key < $1.key }
            if rule == .bool(false) { return additional.map { "\(path): \($0.key) is not allowed" } }
            return additional.flatMap { problems($0.value, rule, at: "\(path)/\($0.key)") }
        }
    }

    /// Whether `value` is of JSON Schema type `name` (an integer is also a number).
    static func value(_ value: JSONValue, is name: String) -> Bool {
        switch (name, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("integer", .integer), ("number", .integer), ("number", .number): return true
        case ("integer", .number(let number)): return number.rounded() == number
        default: return false
        }
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let number): return number
        default: return nil
        }
    }

    /// Equality with integers and numbers compared by value.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = number(a), let y = number(b) { return x == y }
        return a == b
    }
}
