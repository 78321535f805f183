import Foundation
import Hummingbird
import SwitchyardCore

/// Holds each tenant to its request rate and its number of requests in progress (see
/// ``PlatformPolicy/Tenants``), answering `429 rate_limited` or `429 too_many_concurrent_requests` with
/// `Retry-After`.
///
/// Applies to requests bearing a tenant API key, wherever they go but the probes: `/health` and `/ready`
/// pass untouched whatever they carry (a load balancer's probe is never throttled, nor made to wait for a
/// key lookup), and so do the operator API and providers' notifications, which carry no tenant key. The key is looked up here once
/// and put in the context (``AppContext/presentedKey``), where the route group's ``TenantAuthentication``
/// finds it. A request with an unknown key passes on, to be refused by its route.
struct TenantLimitMiddleware: RouterMiddleware {
    typealias Context = AppContext

    let tenants: any TenantRepository
    let policy: PolicyCenter
    let limiter: TenantLimiter
    /// Tenants' own policies; a failed read counts as no tenant policy (the platform's limits apply).
    let tenantPolicies: TenantReadCache<TenantPolicy>

    init(tenants: any TenantRepository, policy: PolicyCenter, limiter: TenantLimiter = TenantLimiter()) {
        self.tenants = tenants
        self.policy = policy
        self.limiter = limiter
        self.tenantPolicies = TenantReadCache { (try? await tenants.tenantPolicy(tenant: $0)) ?? TenantPolicy() }
    }

    /// The paths of the health and readiness probes.
    static let probes: Set<String> = ["/health", "/ready"]

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        guard !Self.probes.contains(request.uri.path), let token = Authenticator.bearer(request),
            Authenticator.mayBeAPIKey(token),
            let key = try await tenants.authenticate(secret: token)
        else { return try await next(request, context) }
        let tenant = key.tenantId
        let limits = try await tenantPolicies.value(tenant).requestLimits(policy.platform.tenants)
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
        var context = context
        context.presentedKey = PresentedKey(secret: token, key: key)
        return try await next(request, context)
    }
}
