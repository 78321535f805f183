import Foundation
import PluginHost
import SwitchyardCore

/// A `policy.json`, read strictly: it must decode, its values must make sense, and every key in it must
/// be one some section reads (a misspelt key would otherwise leave its setting at the default).
public struct PolicyDocument: Decodable, Sendable, Equatable {
    /// Which plugins may load.
    public var plugins: PluginPolicy
    /// The platform sections.
    public var platform: PlatformPolicy

    /// Decodes and checks `data`; throws ``CoreError`` `invalid_policy` naming every problem.
    public init(data: Data) throws {
        switch Self.read(data) {
        case .success(let document): self = document
        case .failure(let refusal): throw CoreError(.invalidPolicy, refusal.problems.joined(separator: "; "))
        }
    }

    /// Reads the `plugins` section (``PolicyFile``) and the platform sections from one document; use
    /// ``init(data:)`` for the strict reading.
    public init(from decoder: any Decoder) throws {
        plugins = try PolicyFile(from: decoder).plugins
        platform = try PlatformPolicy(from: decoder)
    }

    /// Every problem of `data` as a policy document, one line each; empty when it can be applied.
    public static func problems(in data: Data) -> [String] {
        switch read(data) {
        case .success: return []
        case .failure(let refusal): return refusal.problems
        }
    }

    /// The document, or why it is refused: the first decoding error, else the unknown keys (with the
    /// known key each one resembles) and the first value out of its bounds. The file is parsed once, and
    /// one pass over it decodes every section and learns which keys they asked for.
    private static func read(_ data: Data) -> Result<PolicyDocument, Refusal> {
        let decoded: (value: PolicyDocument, unknown: [UnknownKey])
        do {
            decoded = try UnknownKeys.decode(PolicyDocument.self, from: data)
        } catch {
            return .failure(Refusal(problems: [describe(error)]))
        }
        let problems = decoded.unknown.map(\.description) + [decoded.value.platform.problem()].compactMap { $0 }
        return problems.isEmpty ? .success(decoded.value) : .failure(Refusal(problems: problems))
    }

    /// A decoding error as one line: where, and what is wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "cannot be read: \(error)" }
        func at(_ context: DecodingError.Context, _ text: String) -> String {
            let path = UnknownKeys.render(context.codingPath)
            if path.isEmpty || text.hasPrefix(path) { return text }
            return "\(path): \(text)"
        }
        switch error {
        case .dataCorrupted(let context):
            let cause = context.underlyingError.map { " (\($0.localizedDescription))" } ?? ""
            return context.codingPath.isEmpty
                ? "not valid JSON: \(context.debugDescription)\(cause)" : at(context, context.debugDescription)
        case .keyNotFound(let key, let context):
            return at(
                DecodingError.Context(codingPath: context.codingPath + [key], debugDescription: ""),
                "required key missing")
        case .typeMismatch(let type, let context):
            return at(context, "expected \(Self.kind(type))")
        case .valueNotFound(let type, let context):
            return at(context, "expected \(Self.kind(type)), found null")
        @unknown default:
            return "cannot be read: \(error)"
        }
    }

    /// A Swift type as a JSON reader would name it.
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: return "true or false"
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        default: return type is any Collection.Type ? "an array or object" : "a \(type)"
        }
    }

    /// Why a document is refused.
    private struct Refusal: Error {
        let problems: [String]
    }
}
