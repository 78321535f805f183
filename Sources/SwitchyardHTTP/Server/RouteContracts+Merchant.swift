import HTTPTypes

extension RouteContracts {
    /// The `/v1` routes of a tenant's API keys.
    static let merchant: [RouteContract] = payments + disputes + customers + webhooks + routing

    static let payments: [RouteContract] = [
        RouteContract.tenant(.post, "/v1/payments", 201, [422]).idempotent,
        .tenant(.get, "/v1/payments", 200, query: listFilters + ["reference", .keyed("metadata"), "expand[]"]),
        .tenant(.get, "/v1/payments/{id}", 200),
        RouteContract.tenant(.post, "/v1/payments/{id}/capture", 200, [402, 422]).idempotent,
        RouteContract.tenant(.post, "/v1/payments/{id}/complete", 200, [402, 410]).idempotent,
        RouteContract.tenant(.post, "/v1/payments/{id}/cancel", 200, [402]).idempotent,
        RouteContract.tenant(.post, "/v1/payments/{id}/refunds", 201, [402, 422]).idempotent,
        .tenant(.get, "/v1/payments/{id}/session", 200, [409, 410]),
        RouteContract.tenant(.post, "/v1/payments/{id}/session", 200, [410]).idempotent,
        .tenant(.post, "/v1/payments/{id}/sync", 200, [409]),
        RouteContract.tenant(.post, "/v1/payment-options", 200, [422]).body,
    ]

    static let disputes: [RouteContract] = [
        .tenant(.get, "/v1/disputes", 200, query: listFilters + ["payment", "due_before", "needs_review"]),
        .tenant(.get, "/v1/disputes/{id}", 200),
        RouteContract.tenant(.post, "/v1/disputes/{id}/accept", 200, [409, 503]).idempotent,
        RouteContract.tenant(.post, "/v1/disputes/{id}/evidence", 200, [409, 413, 415, 503]).idempotent,
        .tenant(.get, "/v1/ledger_entries", 200, query: paging + ["payment", "source", "type"]),
    ]

    static let customers: [RouteContract] = [
        .tenant(.get, "/v1/customers/{customer}/payment-methods", 200, query: listFilters),
        .tenant(.get, "/v1/customers/{customer}/payment-methods/{pm}", 200),
        .tenant(.delete, "/v1/customers/{customer}/payment-methods/{pm}", 200, [409]),
        .tenant(.post, "/v1/customers/{customer}/payment-methods/{pm}/sync", 200, [409]),
        RouteContract.tenant(.post, "/v1/customers/{customer}/vaulting-sessions", 201, [422]).idempotent,
    ]

    static let webhooks: [RouteContract] = [
        RouteContract.tenant(.post, "/v1/webhook-endpoints", 201, [409]).body,
        .tenant(.get, "/v1/webhook-endpoints", 200, query: listFilters),
        .tenant(.get, "/v1/webhook-endpoints/{endpoint}", 200),
        RouteContract.tenant(.post, "/v1/webhook-endpoints/{endpoint}", 200, [409]).body,
        .tenant(.delete, "/v1/webhook-endpoints/{endpoint}", 200),
        RouteContract.tenant(.post, "/v1/webhook-endpoints/{endpoint}/rotate-secret", 200).body,
        RouteContract.tenant(.post, "/v1/webhook-endpoints/{endpoint}/test", 202, [409]).body,
        .tenant(.get, "/v1/events", 200, query: paging + ["type", "object"]),
        .tenant(.get, "/v1/events/{event}", 200),
        .tenant(.get, "/v1/events/{event}/deliveries", 200, query: listFilters),
        RouteContract.tenant(.post, "/v1/events/{event}/replay", 202, [409]).body,
        .tenant(.get, "/v1/webhook-deliveries", 200, query: listFilters),
    ]

    static let routing: [RouteContract] = [
        .tenant(.get, "/v1/routing", 200),
        RouteContract.tenant(.put, "/v1/routing", 200, [409, 422]).body,
        .tenant(.get, "/v1/routing/versions", 200, query: paging),
        RouteContract.tenant(.post, "/v1/routing/simulate", 200, [422]).body,
        RouteContract.tenant(.post, "/v1/routing/replay", 200, [409, 422]).body,
        .tenant(.get, "/v1/routing/stats", 200),
        .tenant(.post, "/v1/routing/rollout/stop", 200, [404, 409]),
        .tenant(.get, "/v1/routing/rollout/series", 200, [404, 409], query: ["rollout", "buckets"]),
    ]
}
