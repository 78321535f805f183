import HTTPTypes
import SwitchyardCore

extension RouteContracts {
    /// The `/admin/v1` routes of the operator.
    static let admin: [RouteContract] =
        tenants + orchestration + tenantPayments + tenantWebhooks + tenantDisputes + operators

    static let tenants: [RouteContract] = [
        RouteContract.operatorRoute(.post, "/admin/v1/tenants", 201, needs: .tenantsManage).body,
        .operatorRoute(.get, "/admin/v1/tenants", 200, query: paging, needs: .platformRead),
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}", 200, needs: .platformRead),
        RouteContract.operatorRoute(.patch, "/admin/v1/tenants/{tenant}", 200, needs: .tenantsManage).body,
        RouteContract.operatorRoute(.post, "/admin/v1/tenants/{tenant}/api-keys", 201, needs: .keysManage).body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/api-keys", 200, query: paging, needs: .platformRead),
        .operatorRoute(.delete, "/admin/v1/tenants/{tenant}/api-keys/{key}", 204, [409], needs: .keysManage),
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/api-keys/{key}/rotate", 201, [409], needs: .keysManage
        ).body,
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/provider-accounts", 201, [422], needs: .accountsManage
        ).body,
        .operatorRoute(
            .get, "/admin/v1/tenants/{tenant}/provider-accounts", 200, query: listFilters, needs: .platformRead),
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/provider-accounts/{account}", 200, needs: .platformRead),
        RouteContract.operatorRoute(
            .patch, "/admin/v1/tenants/{tenant}/provider-accounts/{account}", 200, [422], needs: .accountsManage
        )
        .body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/policy", 200, needs: .platformRead),
        RouteContract.operatorRoute(.put, "/admin/v1/tenants/{tenant}/policy", 200, [422], needs: .policyManage).body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/routing", 200, needs: .platformRead),
        RouteContract.operatorRoute(.put, "/admin/v1/tenants/{tenant}/routing", 200, [409, 422], needs: .routingManage)
            .body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/routing/versions", 200, query: paging, needs: .platformRead),
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/routing/simulate", 200, [422], needs: .platformRead
        ).body,
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/routing/replay", 200, [409, 422, 429], needs: .routingManage
        ).body,
        .operatorRoute(.get, "/admin/v1/tenants/{tenant}/routing/stats", 200, needs: .platformRead),
        .operatorRoute(.post, "/admin/v1/tenants/{tenant}/routing/rollout/stop", 200, [409], needs: .routingManage),
        .operatorRoute(
            .get, "/admin/v1/tenants/{tenant}/routing/rollout/series", 200, [409], query: ["rollout", "buckets"],
            needs: .platformRead),
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/events/{event}/replay", 202, [409, 429], needs: .webhooksReplay
        ).body,
    ]

    static let orchestration: [RouteContract] = [
        .operatorRoute(.get, "/admin/v1/me", 200, needs: .platformRead),
        .operatorRoute(.get, "/admin/v1/audit", 200, query: paging + ["tenant", "operator"], needs: .platformRead),
        .operatorRoute(.get, "/admin/v1/plugins", 200, needs: .platformRead),
        .operatorRoute(.post, "/admin/v1/plugins/reload", 200, needs: .pluginsManage),
        .operatorRoute(.post, "/admin/v1/policy/reload", 200, [409], needs: .policyManage),
        .operatorRoute(.get, "/admin/v1/providers/health", 200, needs: .platformRead),
        .operatorRoute(.get, "/admin/v1/payments", 200, query: ["id", "reference"], needs: .platformRead),
        .operatorRoute(.get, "/admin/v1/payments/review", 200, query: ["tenant"], needs: .platformRead),
        RouteContract.operatorRoute(
            .post, "/admin/v1/payments/review/{kind}/{id}/resolve", 200, needs: .reviewResolve
        ).body,
        .operatorRoute(
            .get, "/admin/v1/webhook-deliveries", 200, query: ["status", "tenant", "limit"], needs: .platformRead),
    ]

    static let tenantPayments: [RouteContract] = [
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/payments/{id}/capture", 200, [402, 422], needs: .paymentsAct
        ).idempotent,
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/payments/{id}/cancel", 200, [402], needs: .paymentsAct
        )
        .idempotent,
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/payments/{id}/refunds", 201, [402, 422], needs: .paymentsAct
        ).idempotent,
        .operatorRoute(.post, "/admin/v1/tenants/{tenant}/payments/{id}/sync", 200, [409], needs: .paymentsAct),
    ]

    static let tenantWebhooks: [RouteContract] = [
        .operatorRoute(
            .get, "/admin/v1/tenants/{tenant}/webhook-endpoints", 200, query: listFilters, needs: .platformRead),
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/webhook-endpoints", 201, [409], needs: .webhooksManage
        ).body,
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/webhook-endpoints/{endpoint}", 200, [409], needs: .webhooksManage
        ).body,
        .operatorRoute(
            .delete, "/admin/v1/tenants/{tenant}/webhook-endpoints/{endpoint}", 200, needs: .webhooksManage),
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/webhook-endpoints/{endpoint}/rotate-secret", 200,
            needs: .webhooksManage
        ).body,
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/webhook-endpoints/{endpoint}/test", 202, [409],
            needs: .webhooksReplay
        ).body,
    ]

    static let tenantDisputes: [RouteContract] = [
        .operatorRoute(
            .get, "/admin/v1/tenants/{tenant}/disputes", 200,
            query: listFilters + ["payment", "due_before", "needs_review"], needs: .platformRead),
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/disputes/{id}/accept", 200, [409, 503], needs: .disputesAct
        ).idempotent,
        RouteContract.operatorRoute(
            .post, "/admin/v1/tenants/{tenant}/disputes/{id}/evidence", 200, [409, 413, 415, 503], needs: .disputesAct
        ).idempotent,
    ]

    static let operators: [RouteContract] = [
        RouteContract.operatorRoute(.post, "/admin/v1/operators", 201, [409], needs: .operatorsManage).body,
        .operatorRoute(.get, "/admin/v1/operators", 200, needs: .operatorsManage),
        .operatorRoute(.post, "/admin/v1/operators/{operator}/rotate", 201, [409], needs: .operatorsManage),
        .operatorRoute(.delete, "/admin/v1/operators/{operator}", 200, needs: .operatorsManage),
    ]
}
