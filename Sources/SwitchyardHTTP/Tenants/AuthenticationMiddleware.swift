import Hummingbird
import SwitchyardCore

/// Lets only the operator token through to the routes of its group; the principal is then `.operator`.
/// Anything else is `401 unauthorized`.
struct OperatorAuthentication: RouterMiddleware {
    typealias Context = AppContext

    let auth: Authenticator

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        try auth.requireOperator(request)
        var context = context
        context.principal = .operator
        return try await next(request, context)
    }
}

/// Lets only a usable API key with `scope` through to the routes of its group; the principal is then
/// `.tenant(key)`. No bearer token is `401 unauthorized`, an unknown, revoked or expired key
/// `401 invalid_api_key`, a key without the scope `403 insufficient_scope`.
struct TenantAuthentication: RouterMiddleware {
    typealias Context = AppContext

    let auth: Authenticator
    let scope: APIKeyScope

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        let key = try await auth.requireTenant(request, scope: scope, presented: context.presentedKey)
        var context = context
        context.principal = .tenant(key)
        return try await next(request, context)
    }
}
