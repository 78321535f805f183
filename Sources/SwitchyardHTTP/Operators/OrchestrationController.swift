import Foundation
import Hummingbird
import SwitchyardCore

/// The operator's view of the orchestration engine: provider health (circuit breakers), payments
/// waiting for manual review, tenants' own limits and reloading `policy.json`.
struct OrchestrationController: Sendable {
    let review: any ReviewRepository
    let service: PaymentService
    let tenants: TenantAdminService
    let bodyLimit: Int
    let reloadPolicy: @Sendable () async throws -> PlatformPolicy
    /// Where resolutions of review items are audited; nil: not audited.
    var operators: (any OperatorRepository)? = nil

    struct HealthBody: Encodable {
        var accountId: String
        var tenantId: String
        var name: String
        var plugin: String
        var enabled: Bool
        var state: String
        var consecutiveFailures: Int
        var openedAt: Date?
        var retryAt: Date?
        var timesOpened: Int
        var timesClosed: Int

        enum CodingKeys: String, CodingKey {
            case accountId = "account_id"
            case tenantId = "tenant_id"
            case name, plugin, enabled, state
            case consecutiveFailures = "consecutive_failures"
            case openedAt = "opened_at"
            case retryAt = "retry_at"
            case timesOpened = "times_opened"
            case timesClosed = "times_closed"
        }
    }

    struct ReviewBody: Encodable {
        /// `payment_unknown`, or `payment_action_pending` for a payment still waiting for the customer's
        /// action past the horizon after its session's expiry.
        var kind: String
        var id: String
        var tenantId: String
        var amount: Int64
        var currency: String
        var reference: String
        var providerAccountId: String?
        var unknownSince: Date?
        var syncs: Int

        enum CodingKeys: String, CodingKey {
            case kind, id, amount, currency, reference, syncs
            case tenantId = "tenant_id"
            case providerAccountId = "provider_account_id"
            case unknownSince = "unknown_since"
        }
    }

    func register(on admin: RouterGroup<AppContext>) {
        admin.get("providers/health") { _, _ in
            let accounts = try await review.accountSummaries()
            let breakers = Dictionary(
                uniqueKeysWithValues: await service.health.snapshot().map { ($0.accountId, $0) })
            let data = accounts.map { a in
                let b = breakers[a.id]
                return HealthBody(
                    accountId: a.id.uuidString.lowercased(), tenantId: a.tenantId.uuidString.lowercased(),
                    name: a.name, plugin: a.pluginId, enabled: a.enabled, state: (b?.state ?? .closed).rawValue,
                    consecutiveFailures: b?.consecutiveFailures ?? 0, openedAt: b?.openedAt, retryAt: b?.retryAt,
                    timesOpened: b?.timesOpened ?? 0, timesClosed: b?.timesClosed ?? 0)
            }
            return JSONIO.response(.ok, ["data": data])
        }
        admin.get("payments/review") { request, _ in
            let tenant = try await ListQuery.tenant(request, tenants: tenants)
            let payments = try await review.paymentsForReview(tenant: tenant, limit: 200)
            let data = payments.map { p in
                ReviewBody(
                    kind: p.status == .requiresAction ? "payment_action_pending" : "payment_unknown", id: p.id,
                    tenantId: p.tenantId.uuidString.lowercased(), amount: p.amount, currency: p.currency,
                    reference: p.reference, providerAccountId: p.providerAccountId?.uuidString.lowercased(),
                    unknownSince: p.resolution?.since, syncs: p.resolution?.syncs ?? 0)
            }
            return JSONIO.response(.ok, try await reviewList(data, tenant: tenant))
        }
        registerResolution(on: admin)
        admin.get("tenants/:tenant/policy") { request, context in
            let tenant = try await tenants.tenant(in: context).id
            return JSONIO.response(.ok, try await policyBody(tenant: tenant))
        }
        admin.put("tenants/:tenant/policy") { request, context in
            let tenant = try await tenants.tenant(in: context).id
            let policy = try await JSONIO.body(request, context, limit: bodyLimit).decode(TenantPolicy.self)
            try await tenants.setTenantPolicy(
                tenant: tenant, policy: policy, platform: service.policy.platform, actor: "operator")
            return JSONIO.response(.ok, try await policyBody(tenant: tenant))
        }
        admin.post("policy/reload") { _, _ in
            return JSONIO.response(.ok, try await reloadPolicy())
        }
    }

    struct PolicyBody: Encodable {
        var tenant: TenantPolicy
        var effective: PlatformPolicy
    }

    private func policyBody(tenant: UUID) async throws -> PolicyBody {
        PolicyBody(
            tenant: try await tenants.tenantPolicy(tenant: tenant),
            effective: try await service.effectivePolicy(tenant: tenant))
    }
}
