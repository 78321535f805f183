#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON as a provider's API writes it: request bodies with sorted keys and unescaped slashes (stable bytes,
/// which signatures and seals can cover), and tolerant reading of answers.
public struct ProviderJSON: Sendable {
    /// How Swift property names become JSON keys.
    public enum KeyStyle: Sendable {
        /// As the type declares them (its `CodingKeys`).
        case asDeclared
        /// `camelCase` properties as `snake_case` keys.
        case snakeCase
    }

    /// The key style of both directions.
    public var keys: KeyStyle

    /// Keys as the wire types declare them.
    public static let standard = ProviderJSON(keys: .asDeclared)

    /// JSON with the given key style.
    public init(keys: KeyStyle) {
        self.keys = keys
    }

    /// The body bytes of a request: sorted keys, slashes unescaped.
    ///
    /// - Throws: `bad_request` when the value cannot be encoded (a programming error; nothing is sent).
    public func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if keys == .snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        do {
            return try encoder.encode(value)
        } catch {
            throw ProviderError(code: "bad_request", message: "the request body cannot be encoded")
        }
    }

    /// The value a body holds; nil when there is no body or it is not that value.
    public func decode<Value: Decodable>(_ type: Value.Type, from body: Data?) -> Value? {
        guard let body, !body.isEmpty else { return nil }
        if keys == .asDeclared {
            return try? CompactJSONDecoder(dates: .deferredToDate).decode(type, from: body)
        }
        let decoder = JSONDecoder()
        if keys == .snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        return try? decoder.decode(type, from: body)
    }

    /// The members of a body that is a JSON object; nil otherwise.
    public func object(from body: Data?) -> [String: JSONValue]? {
        decode(JSONValue.self, from: body)?.objectValue
    }
}
