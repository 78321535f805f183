import Foundation

/// A section of `policy.json` described by its ``fields``: decoding reads each declared key (absent or
/// `null` keeps the section's initial value, its default), encoding writes each, and the range checks
/// come from the same declarations. A key a section does not declare is never asked for, so the strict
/// reading (``UnknownKeys``) refuses it.
public protocol PolicySection: Codable, Sendable, Equatable {
    /// The section with every key at its default.
    init()
    /// The section's key in `policy.json`, e.g. `failover`.
    static var name: String { get }
    /// The section's keys, in the order they are read, checked and documented.
    static var fields: [PolicyField<Self>] { get }
    /// Whether a value out of its range refuses the document while it is decoded (a decoding error), or
    /// only when the whole policy is checked (``PlatformPolicy/problem()``, beside the unknown keys).
    static var refusesWhileDecoding: Bool { get }
    /// The problem that refuses the section while it is decoded: by default the first value out of its
    /// range; a section with a rule over several keys adds it.
    func decodingProblem() -> PolicyProblem?
}

/// A value of a policy section that is refused, and the key it is about.
public struct PolicyProblem: Sendable, Equatable {
    /// The key's name within its section.
    public var key: String
    /// The message, naming the key with its section (`retention.batch_size must be between 1 and 10000`).
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }
}

extension PolicySection {
    /// By default a value out of its range refuses the section while it is decoded.
    public static var refusesWhileDecoding: Bool { true }

    /// By default the first value out of its range.
    public func decodingProblem() -> PolicyProblem? { rangeProblem() }

    /// The first key whose value is outside what its declaration accepts; nil when every value is in range.
    public func rangeProblem() -> PolicyProblem? {
        for field in Self.fields {
            if let problem = field.problem(self) {
                return PolicyProblem(key: field.name, message: "\(Self.name).\(field.name) \(problem)")
            }
        }
        return nil
    }

    /// The keys whose values differ from `base`'s, with their values as JSON text, in declaration order.
    public func changedKeys(from base: Self = Self()) -> [(key: String, text: String)] {
        Self.fields.compactMap { field in
            guard let text = field.valueText(self), text != field.valueText(base) else { return nil }
            return (field.name, text)
        }
    }

    /// Reads each declared key that is present and not `null` (the others keep their defaults), then
    /// refuses the section with a ``decodingProblem()`` where ``refusesWhileDecoding``.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: PolicyCodingKey.self)
        for field in Self.fields {
            try field.decode(&self, container)
        }
        guard Self.refusesWhileDecoding, let problem = decodingProblem() else { return }
        throw DecodingError.dataCorruptedError(
            forKey: PolicyCodingKey(problem.key), in: container, debugDescription: problem.message)
    }

    /// Writes each declared key (an unset optional one is left out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PolicyCodingKey.self)
        for field in Self.fields {
            try field.encode(self, &container)
        }
    }
}
