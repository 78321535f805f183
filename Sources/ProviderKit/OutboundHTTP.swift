#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An HTTP request a plugin asks the host to send.
public struct OutboundRequest: Codable, Sendable, Equatable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: Data?
    /// Total time allowed for the exchange, in milliseconds; `nil` uses the host's default.
    public var timeoutMs: Int?
    /// Header names whose values must never be logged or recorded (the host always redacts
    /// `Authorization` and known secret headers too).
    public var redactHeaders: [String]

    public init(
        method: String, url: String, headers: [HTTPHeader] = [], body: Data? = nil, timeoutMs: Int? = nil,
        redactHeaders: [String] = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutMs = timeoutMs
        self.redactHeaders = redactHeaders
    }
}

/// The host's answer to an ``OutboundRequest``.
public struct OutboundResult: Codable, Sendable, Equatable {
    /// How the exchange ended.
    public enum Kind: String, Codable, Sendable {
        /// The provider answered (any status).
        case response
        /// The request certainly never reached the provider (DNS, connection refused, connect timeout).
        case notSent
        /// The request may have reached the provider, but no complete answer came back
        /// (read timeout, connection reset after sending).
        case noResponse
    }

    public var kind: Kind
    public var status: Int?
    public var headers: [HTTPHeader]
    public var body: Data?
    /// Why there is no response (no secrets).
    public var reason: String?

    public init(kind: Kind, status: Int? = nil, headers: [HTTPHeader] = [], body: Data? = nil, reason: String? = nil) {
        self.kind = kind
        self.status = status
        self.headers = headers
        self.body = body
        self.reason = reason
    }

    /// The value of the first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
