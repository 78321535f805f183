import HTTPTypes

extension RouteContracts {
    /// The `/admin/v1` routes of the operator.
    static let admin: [RouteContract] = tenants + orchestration

    static let tenants: [RouteContract] = [
        RouteContract.operatorRoute(.post, "/admin/v1/tenants", 201).body,
        .operatorRoute(.get, "/admin/v1/tenants", 200, query: paging),
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}", 200),
        RouteContract.operatorRoute(.post, "/admin/v1/tenants/{tenant}/api-keys", 201).body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/api-keys", 200, query: paging),
        .operatorRoute(.delete, "/admin/v1/tenants/{tenant}/api-keys/{key}", 204, [409]),
        RouteContract.operatorRoute(.post, "/admin/v1/tenants/{tenant}/api-keys/{key}/rotate", 201, [409]).body,
        RouteContract.operatorRoute(.post, "/admin/v1/tenants/{tenant}/provider-accounts", 201, [422]).body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/provider-accounts", 200, query: listFilters),
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/provider-accounts/{account}", 200),
        RouteContract.operatorRoute(.patch, "/admin/v1/tenants/{tenant}/provider-accounts/{account}", 200, [422])
            .body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/policy", 200),
        RouteContract.operatorRoute(.put, "/admin/v1/tenants/{tenant}/policy", 200, [422]).body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/routing", 200),
        RouteContract.operatorRoute(.put, "/admin/v1/tenants/{tenant}/routing", 200, [409, 422]).body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/routing/versions", 200, query: paging),
        RouteContract.operatorRoute(.post, "/admin/v1/tenants/{tenant}/routing/simulate", 200, [422]).body,
        RouteContract.operatorRoute(.post, "/admin/v1/tenants/{tenant}/routing/replay", 200, [409, 422, 429]).body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/routing/stats", 200),
        .operatorRoute(.post, "/admin/v1/tenants/{tenant}/routing/rollout/stop", 200, [409]),
        .operatorRoute(
            .get, "/admin/v1/tenants/{tenant}/routing/rollout/series", 200, [409], query: ["rollout", "buckets"]),
        RouteContract.operatorRoute(.post, "/admin/v1/tenants/{tenant}/events/{event}/replay", 202, [409, 429]).body,
    ]

    static let orchestration: [RouteContract] = [
        .operatorRoute(.get, "/admin/v1/me", 200),
        .operatorRoute(.get, "/admin/v1/audit", 200, query: paging + ["tenant"]),
        .operatorRoute(.get, "/admin/v1/plugins", 200),
        .operatorRoute(.post, "/admin/v1/plugins/reload", 200),
        .operatorRoute(.post, "/admin/v1/policy/reload", 200, [409]),
        .operatorRoute(.get, "/admin/v1/providers/health", 200),
        .operatorRoute(.get, "/admin/v1/payments", 200, query: ["id", "reference"]),
        .operatorRoute(.get, "/admin/v1/payments/review", 200, query: ["tenant"]),
        .operatorRoute(.get, "/admin/v1/webhook-deliveries", 200, query: ["status", "tenant", "limit"]),
    ]
}
