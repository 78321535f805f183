import Foundation
import Hummingbird
import SwitchyardCore

/// A tenant's routing: read, replace (validated, versioned, audited), guarded rollouts of a change
/// (`RoutingController+Rollout.swift`), history, simulation and replay over past traffic. Served to
/// the operator under `/admin/v1/tenants/{tenant}/routing…` and to the tenant itself, with an
/// `admin`-scoped API key, under `/v1/routing…`.
struct RoutingController: Sendable {
    let routing: RoutingAdminService
    let service: PaymentService
    let tenants: TenantAdminService
    let bodyLimit: Int
    /// The authorisation statistics listed under `…/routing/stats`.
    let stats: RoutingStatsService
    /// What `…/routing/replay` runs; nil when the server has no ledger to replay.
    let replay: RoutingReplayService?

    /// Who is acting on which tenant.
    typealias Resolve = @Sendable (Request, AppContext) async throws -> (tenant: UUID, actor: String)

    struct SimulateBody: Decodable {
        var amount: MinorUnits
        var currency: String
        var country: String
        var method: String
        var reference: String?
    }

    func register(operator admin: RouterGroup<AppContext>, tenant v1: RouterGroup<AppContext>) {
        let asOperator: Resolve = { _, context in
            (try await tenants.tenant(in: context).id, "operator")
        }
        let asTenant: Resolve = { _, context in
            let key = try context.apiKey
            return (key.tenantId, "api_key:\(key.prefix)")
        }
        registerStats([(admin, "tenants/:tenant/routing", asOperator), (v1, "routing", asTenant)])
        for (group, path, resolve) in [
            (admin, "tenants/:tenant/routing", asOperator), (v1, "routing", asTenant),
        ] {
            group.get(RouterPath(path)) { request, context in
                let (tenant, _) = try await resolve(request, context)
                return JSONIO.response(.ok, try await view(tenant: tenant))
            }
            group.put(RouterPath(path)) { request, context in
                let (tenant, actor) = try await resolve(request, context)
                return try await replace(
                    tenant: tenant, actor: actor, json: try await JSONIO.body(request, context, limit: bodyLimit))
            }
            group.get(RouterPath(path + "/versions")) { request, context in
                let (tenant, _) = try await resolve(request, context)
                let page = try ListQuery.page(request)
                let versions = try await routing.history(tenant: tenant, page: page)
                return JSONIO.response(
                    .ok,
                    ListResource(versions, page, id: { String($0.version) }) {
                        VersionBody(
                            version: $0.version, actor: $0.actor, createdAt: $0.createdAt,
                            rules: $0.rules.map(Self.ruleBody))
                    })
            }
            group.post(RouterPath(path + "/rollout/stop")) { request, context in
                try await JSONIO.noFields(request, context, limit: bodyLimit)
                let (tenant, actor) = try await resolve(request, context)
                return try await stopRollout(tenant: tenant, actor: actor)
            }
            group.get(RouterPath(path + "/rollout/series")) { request, context in
                let (tenant, _) = try await resolve(request, context)
                return try await rolloutSeries(tenant: tenant, request: request)
            }
            group.post(RouterPath(path + "/simulate")) { request, context in
                let (tenant, _) = try await resolve(request, context)
                // A key simulates among the accounts of its own mode, as its payments route; the operator
                // among all.
                let livemode: Bool? = if case .tenant(let key) = context.principal { key.livemode } else { nil }
                return try await simulate(
                    tenant: tenant, livemode: livemode, json: try await JSONIO.body(request, context, limit: bodyLimit))
            }
            group.post(RouterPath(path + "/replay")) { request, context in
                let (tenant, _) = try await resolve(request, context)
                return try await replay(tenant: tenant, json: try await JSONIO.body(request, context, limit: bodyLimit))
            }
        }
    }

    private func replace(tenant: UUID, actor: String, json: JSONBody) async throws -> Response {
        let body = try json.decode(AdminBodies.Routing.self)
        if let rollout = body.rollout {
            return try await startRollout(tenant: tenant, actor: actor, body: body, rollout: rollout)
        }
        let replaced: RoutingAdminService.Replaced
        do {
            replaced = try await routing.replace(
                tenant: tenant, rules: Self.rules(body), expectedVersion: body.version, actor: actor)
        } catch let rejection as RoutingAdminService.Rejection {
            throw Self.invalidRouting(rejection)
        }
        var response = Self.body(replaced.configuration)
        if !replaced.warnings.isEmpty { response.warnings = replaced.warnings.map(APIError.Issue.init) }
        return JSONIO.response(.ok, response)
    }

    /// The `invalid_routing` error of a refused routing, with each issue.
    static func invalidRouting(_ rejection: RoutingAdminService.Rejection) -> APIError {
        APIError(.invalidRouting, rejection.message, issues: rejection.issues.map(APIError.Issue.init))
    }

    /// The rules of a routing body, not yet validated.
    static func rules(_ body: AdminBodies.Routing) -> [RoutingRule] {
        body.rules.map { rule in
            RoutingRule(
                id: rule.id.flatMap(UUID.init(uuidString:)) ?? UUID(), name: rule.name,
                match: .init(
                    countries: rule.match?.countries ?? [], currencies: rule.match?.currencies ?? [],
                    methods: rule.match?.methods ?? [], minAmount: rule.match?.minAmount?.value,
                    maxAmount: rule.match?.maxAmount?.value),
                accounts: rule.accounts, weights: rule.weights, strategy: rule.strategy, maxRateLoss: rule.maxRateLoss)
        }
    }

    /// The payment a simulate body describes, decoded and validated, with its reference; throws a 4xx
    /// error otherwise.
    static func simulatedPayment(_ json: JSONBody) throws -> (description: PaymentDescription, reference: String) {
        let body = try json.decode(SimulateBody.self)
        let payment = try NewPayment(
            amount: body.amount.value, currency: body.currency, country: body.country, method: body.method,
            reference: body.reference ?? "simulation")
        let description = PaymentDescription(
            amount: payment.amount, currency: payment.currency, country: payment.country, method: body.method)
        return (description, payment.reference)
    }

    private func simulate(tenant: UUID, livemode: Bool?, json: JSONBody) async throws -> Response {
        let (description, reference) = try Self.simulatedPayment(json)
        let key = PaymentRouter.routingKey(
            tenant: tenant, reference: reference, amount: description.amount, currency: description.currency)
        let explanation = try await service.explainRoute(
            tenant: tenant, payment: description, routingKey: key, livemode: livemode)
        return JSONIO.response(.ok, SimulationBody(explanation))
    }

    static func body(_ configuration: RoutingConfiguration) -> RoutingView {
        RoutingView(rules: configuration.rules.map(ruleBody), version: configuration.version)
    }

    static func ruleBody(_ rule: RoutingRule) -> AdminBodies.RuleBody {
        AdminBodies.RuleBody(
            id: rule.id.uuidString.lowercased(), name: rule.name,
            match: .init(
                countries: rule.match.countries, currencies: rule.match.currencies, methods: rule.match.methods,
                minAmount: rule.match.minAmount.map(MinorUnits.init),
                maxAmount: rule.match.maxAmount.map(MinorUnits.init)),
            accounts: rule.accounts, weights: rule.weights, strategy: rule.strategy, maxRateLoss: rule.maxRateLoss)
    }

    struct VersionBody: Encodable {
        var version: Int
        var actor: String
        var createdAt: Date
        var rules: [AdminBodies.RuleBody]

        enum CodingKeys: String, CodingKey {
            case version, actor, rules
            case createdAt = "created_at"
        }
    }
}
