import HTTPTypes
import SwitchyardCore

/// What one route takes and answers, beyond its body: the query parameters it reads, the request headers it
/// reads, the response headers it may set and the statuses it may answer with.
///
/// Hummingbird knows a route's method and path only; the rest is declared here, one row per route in
/// ``RouteContracts`` (keyed by method and path template as the router spells it, `/v1/payments/{id}`).
/// ``QueryContractMiddleware`` refuses query parameters a route does not declare, and the contract tests
/// hold the rows, the router and `openapi.json` to each other both ways.
public struct RouteContract: Sendable, Equatable {
    /// The route's method.
    public var method: HTTPRequest.Method
    /// The route's path template, parameters in braces: `/v1/payments/{id}`.
    public var path: String
    /// The query parameters the route reads; any other is `400 unknown_parameter`.
    public var query: [QueryParameter]
    /// Whether the query is passed on as it is (a provider's notification) and so not checked.
    public var passesQueryThrough: Bool
    /// The request headers the route reads (`Authorization` aside: it is the API's security scheme).
    public var requestHeaders: Set<String>
    /// The response headers the route may set (the body's own `Content-Type`/`Content-Length` aside).
    public var responseHeaders: Set<String>
    /// The statuses the route may answer with.
    public var statuses: Set<Int>
    /// The operator permission the route needs (operator routes only); see ``OperatorRole``.
    public var permission: OperatorPermission?

    /// A row: `requestHeaders` and `responseHeaders` add to the one every route shares, `X-Request-Id`.
    public init(
        _ method: HTTPRequest.Method, _ path: String, query: [QueryParameter] = [], passesQueryThrough: Bool = false,
        requestHeaders: Set<String> = [], responseHeaders: Set<String> = [], statuses: Set<Int>
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.passesQueryThrough = passesQueryThrough
        self.requestHeaders = requestHeaders.union([Header.requestID])
        self.responseHeaders = responseHeaders.union([Header.requestID])
        self.statuses = statuses
    }

    /// The row's key: `GET /v1/payments/{id}`.
    public var key: String { Self.key(method, path) }

    /// The key of the route with `method` and path template `path`.
    public static func key(_ method: HTTPRequest.Method, _ path: String) -> String { "\(method.rawValue) \(path)" }

    /// Whether the route takes a query parameter named `name` (already percent-decoded).
    public func accepts(parameter name: String) -> Bool {
        passesQueryThrough || query.contains { $0.matches(name) }
    }

    /// This row for a route that also answers `statuses` and sets `responseHeaders`, reads `requestHeaders`
    /// and takes `query`.
    public func adding(
        query: [QueryParameter] = [], requestHeaders: Set<String> = [], responseHeaders: Set<String> = [],
        statuses: Set<Int> = []
    ) -> RouteContract {
        var row = RouteContract(
            method, path, query: self.query + query, passesQueryThrough: passesQueryThrough,
            requestHeaders: self.requestHeaders.union(requestHeaders),
            responseHeaders: self.responseHeaders.union(responseHeaders), statuses: self.statuses.union(statuses))
        row.permission = permission
        return row
    }

    /// The header names rows share.
    public enum Header {
        /// The caller's request id, echoed on every response.
        public static let requestID = "X-Request-Id"
        /// Seconds to wait before retrying a `429` or `503`.
        public static let retryAfter = "Retry-After"
        /// The key that makes a write safe to retry.
        public static let idempotencyKey = "Idempotency-Key"
        /// `true` on a response replayed for a repeated `Idempotency-Key`.
        public static let idempotentReplayed = "Idempotent-Replayed"
        /// The merchant API version a request asks to be answered in.
        public static let apiVersion = "Switchyard-Version"
    }
}

/// A query parameter a route reads: one name (`limit`, `created[gte]`), or a family of bracketed names
/// (`metadata[<key>]`), documented in OpenAPI as one `deepObject` parameter. A family also takes its bare
/// or half-bracketed name, for the route to refuse with its own message.
public enum QueryParameter: Sendable, Hashable, ExpressibleByStringLiteral {
    /// Exactly this name.
    case named(String)
    /// `prefix[<anything>]`.
    case keyed(String)

    public init(stringLiteral value: String) { self = .named(value) }

    /// The name OpenAPI documents it under.
    public var documentedName: String {
        switch self {
        case .named(let name), .keyed(let name): name
        }
    }

    /// The name as an error message shows it: `metadata[<key>]`.
    public var shownName: String {
        switch self {
        case .named(let name): name
        case .keyed(let name): name + "[<key>]"
        }
    }

    /// Whether a parameter named `name` is this one.
    public func matches(_ name: String) -> Bool {
        switch self {
        case .named(let own): name == own
        case .keyed(let prefix): name == prefix || name.hasPrefix(prefix + "[")
        }
    }
}
