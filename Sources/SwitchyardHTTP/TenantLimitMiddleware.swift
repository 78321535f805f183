import Foundation
import Hummingbird
import SwitchyardCore
import SwitchyardStore

/// Holds each tenant to its request rate and its number of requests in progress (see
/// ``PlatformPolicy/Tenants``), answering `429 rate_limited` or `429 too_many_concurrent_requests` with
/// `Retry-After`.
///
/// Applies to requests bearing a tenant API key, wherever they go; the operator API, `/health`,
/// `/ready` and providers' notifications carry none and pass untouched. The key is checked here once:
/// the route's own check (``Authenticator/requireTenant(_:scope:)``) reuses the result for this request.
/// A request with an unknown key passes on, to be refused by its route.
struct TenantLimitMiddleware: RouterMiddleware {
    typealias Context = AppContext

    let store: PostgresStore
    let policy: PolicyCenter
    let limiter: TenantLimiter
    let tenantPolicies: TenantPolicyCache

    init(store: PostgresStore, policy: PolicyCenter, limiter: TenantLimiter = TenantLimiter()) {
        self.store = store
        self.policy = policy
        self.limiter = limiter
        self.tenantPolicies = TenantPolicyCache(store: store)
    }

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        guard let token = Authenticator.bearer(request), Authenticator.mayBeAPIKey(token),
            let key = try await store.authenticate(secret: token)
        else { return try await next(request, context) }
        let tenant = key.tenantId
        let limits = await tenantPolicies.policy(tenant).requestLimits(policy.platform.tenants)
        switch limiter.admit(tenant: tenant, limits: limits) {
        case .admitted:
            break
        case .rateLimited(let seconds):
            context.logger.notice("tenant over its request rate", metadata: ["tenant.id": "\(tenant)"])
            throw APIError.rateLimited(retryAfter: seconds)
        case .tooManyConcurrent:
            context.logger.notice("tenant over its concurrent requests", metadata: ["tenant.id": "\(tenant)"])
            throw APIError.tooManyConcurrentRequests
        }
        defer { limiter.finish(tenant: tenant) }
        return try await Authenticator.$verified.withValue(.init(secret: token, key: key)) {
            try await next(request, context)
        }
    }
}

/// Tenants' own policies, read from the store at most once per `maxAge` per tenant (so a changed
/// policy takes effect within `maxAge`). A failed read counts as no tenant policy: the platform's
/// limits apply.
actor TenantPolicyCache {
    private let store: PostgresStore
    private let maxAge: TimeInterval
    private var entries: [UUID: (policy: TenantPolicy, readAt: TimeInterval)] = [:]

    init(store: PostgresStore, maxAge: TimeInterval = 5) {
        self.store = store
        self.maxAge = maxAge
    }

    func policy(_ tenant: UUID) async -> TenantPolicy {
        let now = ProcessInfo.processInfo.systemUptime
        if let entry = entries[tenant], now - entry.readAt < maxAge { return entry.policy }
        let policy = (try? await store.tenantPolicy(tenant: tenant)) ?? TenantPolicy()
        entries[tenant] = (policy, now)
        return policy
    }
}
