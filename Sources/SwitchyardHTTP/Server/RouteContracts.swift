import HTTPTypes
import SwitchyardCore

/// Every route's ``RouteContract``: one row per route the router serves, keyed by method and path
/// template. A route added to a controller gets its row here (in `RouteContracts+Merchant.swift` or
/// `RouteContracts+Admin.swift`), and its parameters, headers and statuses in `openapi.json`; the contract
/// tests fail on a route without a row, a row without a route, or a row the document disagrees with.
///
/// Taking one more query parameter or header is a change to the route's row only:
/// `.tenant(.get, "/v1/payments", 200, query: listFilters + ["reference", .keyed("metadata"), "expand[]"])`.
public enum RouteContracts {
    /// Every row.
    public static let all: [RouteContract] = open + merchant + admin

    /// The rows by ``RouteContract/key``.
    static let byKey: [String: RouteContract] = Dictionary(all.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })

    /// The row of the route with `method` and path template `path` (as the router describes it), nil when
    /// none.
    public static func contract(_ method: HTTPRequest.Method, _ path: String) -> RouteContract? {
        byKey[RouteContract.key(method, path)]
    }

    /// The routes open to anyone (and the operator's `/metrics`).
    static let open: [RouteContract] = [
        RouteContract(.get, "/health", statuses: Statuses.any.union([200])),
        RouteContract(.get, "/ready", statuses: Statuses.any.union([200, 503])),
        RouteContract(.get, "/openapi.json", statuses: Statuses.any.union([200])),
        RouteContract(.get, "/console", responseHeaders: consoleHeaders, statuses: Statuses.any.union([200])),
        RouteContract(.get, "/console/app.css", responseHeaders: consoleHeaders, statuses: Statuses.any.union([200])),
        RouteContract(.get, "/console/app.js", responseHeaders: consoleHeaders, statuses: Statuses.any.union([200])),
        .operatorRoute(.get, "/metrics", 200, needs: .platformRead),
        // The provider's notification: its query goes to the plugin with the rest, and the plugin picks the
        // reply (any of these).
        RouteContract(
            .post, "/notifications/{account}", passesQueryThrough: true,
            responseHeaders: [RouteContract.Header.retryAfter],
            statuses: Statuses.any.union(Statuses.body).union([200, 400, 401, 404, 503])),
    ]

    /// The headers the console's pages and assets are served with.
    static let consoleHeaders: Set<String> = [
        "Cache-Control", "Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options", "X-Frame-Options",
    ]

    /// The query parameters of every paged list: `limit`, the cursors and the `created[…]` bounds.
    public static let paging: [QueryParameter] = PageRequest.parameterNames.filter { $0 != "status" }.map {
        .named($0)
    }

    /// The query parameters of a paged list of items with a status: ``paging`` and `status`.
    public static let listFilters: [QueryParameter] = paging + ["status"]

    /// The statuses rows share.
    public enum Statuses {
        /// Any route: `400` (`unknown_parameter`, `invalid_text`) and `500 internal_error`.
        public static let any: Set<Int> = [400, 500]
        /// A route reading a body: `413 body_too_large`, `415 unsupported_media_type`.
        public static let body: Set<Int> = [413, 415]
        /// A route of the operator API: ``any``, `401`, `403 missing_permission` (the operator's role) and
        /// `503` (the database).
        public static let operatorAPI: Set<Int> = any.union([401, 403, 503])
        /// A route of a tenant's API key: ``any``, `401`, `403 insufficient_scope`, `429` (the tenant's
        /// request limits) and `503`.
        public static let tenant: Set<Int> = any.union([401, 403, 429, 503])
    }
}

extension RouteContract {
    /// A route of a tenant's API key answering `success` (or one of `more`), with `Retry-After` on its
    /// `429` and `503`; a path naming a resource may also answer `404`. It reads `Switchyard-Version` and
    /// names the version it answered in with the same header.
    static func tenant(
        _ method: HTTPRequest.Method, _ path: String, _ success: Int, _ more: Set<Int> = [],
        query: [QueryParameter] = []
    ) -> RouteContract {
        guarded(RouteContracts.Statuses.tenant.union(more), method, path, success, query)
            .adding(requestHeaders: [Header.apiVersion], responseHeaders: [Header.apiVersion])
    }

    /// A route of the operator API answering `success` (or one of `more`), with `Retry-After` on its `503`;
    /// a path naming a resource may also answer `404`.
    static func operatorRoute(
        _ method: HTTPRequest.Method, _ path: String, _ success: Int, _ more: Set<Int> = [],
        query: [QueryParameter] = [], needs permission: OperatorPermission
    ) -> RouteContract {
        var row = guarded(RouteContracts.Statuses.operatorAPI.union(more), method, path, success, query)
        row.permission = permission
        return row
    }

    /// A route behind a credential, answering `success` or one of `statuses` (and `404` when its path names
    /// a resource).
    private static func guarded(
        _ statuses: Set<Int>, _ method: HTTPRequest.Method, _ path: String, _ success: Int, _ query: [QueryParameter]
    ) -> RouteContract {
        let own: Set<Int> = path.contains("{") ? [success, 404] : [success]
        return RouteContract(
            method, path, query: query, responseHeaders: [Header.retryAfter], statuses: statuses.union(own))
    }

    /// This row for a route that reads a JSON body.
    var body: RouteContract { adding(statuses: RouteContracts.Statuses.body) }

    /// This row for a write run through the `Idempotency-Key` gate: it reads the body and the key, may
    /// answer `409` (the key in use or reused) and marks a replayed answer `Idempotent-Replayed`.
    var idempotent: RouteContract {
        body.adding(
            requestHeaders: [Header.idempotencyKey], responseHeaders: [Header.idempotentReplayed], statuses: [409])
    }
}
