import Foundation

/// One key of a policy section, declared once: its name, its type and default (read from the
/// section's own initial value), the values it accepts and a one-line description. Decoding, encoding,
/// the range checks and the reference table in docs/operations.md all walk these declarations, so a key
/// has no second list to keep in step.
public struct PolicyField<Section: PolicySection>: Sendable {
    /// The key's name in `policy.json`, e.g. `attempt_limit`.
    public let name: String
    /// What the key sets, in one line.
    public let summary: String
    /// The JSON type, as the reference names it (`integer`, `number`, `boolean`, `integers`, `strings`).
    public let type: String
    /// The default, as JSON (`none` for an optional key without a value).
    public let defaultText: String
    /// The values accepted, as the reference shows them (`1 to 100`); nil when any value of the type is.
    public let rangeText: String?
    let decode: @Sendable (inout Section, KeyedDecodingContainer<PolicyCodingKey>) throws -> Void
    let encode: @Sendable (Section, inout KeyedEncodingContainer<PolicyCodingKey>) throws -> Void
    /// What is wrong with the key's value in `section` (the message after `section.key `), nil when nothing.
    let problem: @Sendable (Section) -> String?
    /// The key's value in `section` as JSON text, nil when it is unset.
    let valueText: @Sendable (Section) -> String?

    /// A key whose value `check` judges (nil when it is accepted); `range` describes what it accepts.
    public static func key<Value: PolicyValue>(
        _ name: String, _ path: WritableKeyPath<Section, Value> & Sendable, range: String? = nil,
        check: @escaping @Sendable (Value) -> String? = { _ in nil }, _ summary: String
    ) -> PolicyField {
        let key = PolicyCodingKey(name)
        return PolicyField(
            name: name, summary: summary, type: Value.policyType, defaultText: Section()[keyPath: path].policyText,
            rangeText: range,
            decode: { section, container in
                if let value = try container.decodeIfPresent(Value.self, forKey: key) { section[keyPath: path] = value }
            },
            encode: { section, container in try container.encode(section[keyPath: path], forKey: key) },
            problem: { check($0[keyPath: path]) }, valueText: { $0[keyPath: path].policyText })
    }

    /// A key the section must have: a document without it is refused (`required key missing`).
    public static func required<Value: PolicyValue>(
        _ name: String, _ path: WritableKeyPath<Section, Value> & Sendable, _ summary: String
    ) -> PolicyField {
        let codingKey = PolicyCodingKey(name)
        let base = key(name, path, summary)
        return PolicyField(
            name: name, summary: summary, type: base.type, defaultText: "(required)", rangeText: nil,
            decode: { section, container in
                section[keyPath: path] = try container.decode(Value.self, forKey: codingKey)
            },
            encode: base.encode, problem: base.problem, valueText: base.valueText)
    }

    /// A key accepting the values of `range`; `unit` ends the message about a value outside it.
    public static func key<Value: PolicyValue & Comparable>(
        _ name: String, _ path: WritableKeyPath<Section, Value> & Sendable, in range: ClosedRange<Value>,
        unit: String? = nil, _ summary: String
    ) -> PolicyField {
        key(
            name, path, range: "\(range.lowerBound.policyText) to \(range.upperBound.policyText)",
            check: { range.contains($0) ? nil : Self.between(range, unit: unit) }, summary)
    }

    /// A key whose accepted values depend on other keys of the section: `bounds` computes the lowest and
    /// the highest, `low` and `high` name them.
    public static func key<Value: PolicyValue & Comparable>(
        _ name: String, _ path: WritableKeyPath<Section, Value> & Sendable, from low: String, to high: String,
        _ bounds: @escaping @Sendable (Section) -> (Value, Value), _ summary: String
    ) -> PolicyField {
        let base = key(name, path, summary)
        return PolicyField(
            name: name, summary: summary, type: base.type, defaultText: base.defaultText,
            rangeText: "\(low) to \(high)",
            decode: base.decode, encode: base.encode,
            problem: { section in
                let (lowest, highest) = bounds(section)
                let value = section[keyPath: path]
                return value >= lowest && value <= highest ? nil : "must be between \(low) and \(high)"
            }, valueText: base.valueText)
    }

    /// An optional key: absent (or `null`) leaves it nil, which `shownDefault` describes. `range` is
    /// shown only; the section holds the value within it where it is used.
    public static func optional<Value: PolicyValue>(
        _ name: String, _ path: WritableKeyPath<Section, Value?> & Sendable, shownDefault: String,
        range: String? = nil, _ summary: String
    ) -> PolicyField {
        let key = PolicyCodingKey(name)
        return PolicyField(
            name: name, summary: summary, type: Value.policyType, defaultText: shownDefault, rangeText: range,
            decode: { section, container in
                if let value = try container.decodeIfPresent(Value.self, forKey: key) { section[keyPath: path] = value }
            },
            encode: { section, container in try container.encodeIfPresent(section[keyPath: path], forKey: key) },
            problem: { _ in nil }, valueText: { $0[keyPath: path]?.policyText })
    }

    /// What the reference shows of this key.
    var description: PolicyKeyDescription {
        PolicyKeyDescription(name: name, type: type, defaultText: defaultText, rangeText: rangeText, summary: summary)
    }

    /// `must be between 1 and 100`, with the unit when there is one.
    static func between<Value: PolicyValue>(_ range: ClosedRange<Value>, unit: String?) -> String {
        "must be between \(range.lowerBound.policyText) and \(range.upperBound.policyText)"
            + (unit.map { " \($0)" } ?? "")
    }
}

/// A policy key as the reference shows it, whatever its section.
public struct PolicyKeyDescription: Sendable, Equatable {
    /// The key's name within its section.
    public let name: String
    /// The JSON type (``PolicyValue/policyType``).
    public let type: String
    /// The default, as JSON.
    public let defaultText: String
    /// The values accepted; nil when any value of the type is.
    public let rangeText: String?
    /// What the key sets, in one line.
    public let summary: String

    /// The key's row of the reference table, naming it with its section.
    func referenceRow(section: String) -> String {
        "| `\(section).\(name)` | \(type) | `\(defaultText)` | \(rangeText ?? "") | \(summary) |"
    }
}

/// A value a policy key may hold, with the name and the text the reference shows for it.
public protocol PolicyValue: Codable, Sendable, Equatable {
    /// The JSON type, as the reference names it.
    static var policyType: String { get }
    /// The value as JSON text.
    var policyText: String { get }
}

extension Int: PolicyValue {
    public static var policyType: String { "integer" }
    public var policyText: String { String(self) }
}

extension Double: PolicyValue {
    public static var policyType: String { "number" }
    public var policyText: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

extension Bool: PolicyValue {
    public static var policyType: String { "boolean" }
    public var policyText: String { self ? "true" : "false" }
}

extension String: PolicyValue {
    public static var policyType: String { "string" }
    public var policyText: String {
        "\"" + replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension Dictionary: PolicyValue where Key == String, Value: PolicyValue {
    public static var policyType: String { "object of " + Value.policyType + "s" }
    public var policyText: String {
        "{" + sorted { $0.key < $1.key }.map { $0.key.policyText + ": " + $0.value.policyText }.joined(separator: ", ")
            + "}"
    }
}

extension Array: PolicyValue where Element: PolicyValue {
    public static var policyType: String { Element.policyType + "s" }
    public var policyText: String { "[" + map(\.policyText).joined(separator: ", ") + "]" }
}

/// A policy key's name as a coding key.
public struct PolicyCodingKey: CodingKey, Sendable {
    /// The key's name.
    public let stringValue: String
    /// Policy keys are names, never positions.
    public var intValue: Int? { nil }

    /// The coding key of the policy key `name`.
    public init(_ name: String) { stringValue = name }
    /// The coding key of the policy key `stringValue`.
    public init?(stringValue: String) { self.stringValue = stringValue }
    /// No policy key is a position.
    public init?(intValue: Int) { nil }
}
