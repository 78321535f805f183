#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON sent with `invoke`: the account and the flow's request.
public struct PluginInvocation<Request: Codable & Sendable>: Codable, Sendable {
    public var account: AccountContext
    public var request: Request

    public init(account: AccountContext, request: Request) {
        self.account = account
        self.request = request
    }
}

/// The JSON a plugin completes an `invoke` with: a result, or an error of ours.
public struct PluginReply<Result: Codable & Sendable>: Codable, Sendable {
    public var result: Result?
    public var error: ProviderErrorBody?

    public init(result: Result) {
        self.result = result
        self.error = nil
    }

    public init(error: ProviderErrorBody) {
        self.result = nil
        self.error = error
    }
}

/// A ``ProviderError`` as it crosses the ABI.
public struct ProviderErrorBody: Codable, Sendable, Equatable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// JSON coding shared by both sides of the ABI: dates as seconds since 1970 (a number with its fraction),
/// Base64 data.
public enum PluginJSON {
    /// The ABI JSON of `value`: the same values ``encoder()`` writes, keys in their type's order, written
    /// in one pass (``CompactJSONEncoder``).
    package static func encode<T: Encodable>(_ value: T) throws -> Data {
        try CompactJSONEncoder(dates: .secondsSince1970).encode(value)
    }

    /// An encoder for ABI payloads.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// The `type` value an ABI payload holds, read in one pass where it can be (``CompactJSONDecoder``); the
    /// values and errors of ``decoder()``.
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try CompactJSONDecoder(dates: .secondsSince1970).decode(type, from: data)
    }

    /// A decoder for ABI payloads.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
