import Foundation
import Hummingbird
import Logging
import SwitchyardCore
import Synchronization

/// Lets only operators through to the routes of its group, each only where its role grants the
/// permission the route's ``RouteContract`` names: the one place every admin route is checked. The
/// principal is then `.operator(identity)`, and the rest of the request runs with an ``AuditContext`` so every
/// audit entry names the operator, its role, the request and its source address. No or a bad credential
/// is `401 unauthorized`; a role without the permission `403 missing_permission`, audited. A route with no
/// permission in its contract is for admins only (it fails closed). Uses of the bootstrap token are logged
/// as warnings, at most once a minute with their count.
struct OperatorAuthentication: RouterMiddleware {
    typealias Context = AppContext

    let auth: Authenticator
    let breakGlass = BreakGlassLog()

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        let identity = try await auth.requireOperator(request, remoteAddress: context.remoteAddress)
        var context = context
        context.principal = .operator(identity)
        let route = context.endpointPath ?? request.uri.path
        let audit = AuditContext(identity: identity, requestId: context.requestID, sourceAddress: context.remoteAddress)
        if identity.breakGlass { breakGlass.used(route: route, logger: context.logger) }
        return try await AuditContext.$current.withValue(audit) {
            let needed = Self.permission(request.method, route)
            guard identity.role.grants(needed) else {
                try? await auth.operators?.auditDenial(
                    permission: needed, method: request.method.rawValue, route: route)
                throw APIError(
                    .missingPermission,
                    "the \(identity.role.rawValue) role lacks the '\(needed.rawValue)' permission this route needs")
            }
            return try await next(request, context)
        }
    }

    /// The permission `method` on the route template `route` needs: its contract's, else every permission
    /// an admin has (``OperatorPermission/operatorsManage`` stands for "admins only").
    static func permission(_ method: HTTPRequest.Method, _ route: String) -> OperatorPermission {
        RouteContracts.contract(method, route)?.permission ?? .operatorsManage
    }
}

/// Counts uses of the bootstrap token and logs them loudly, at most once a minute.
final class BreakGlassLog: Sendable {
    private let state = Mutex<(last: Date?, uses: Int)>((nil, 0))

    func used(route: String, logger: Logger, now: Date = Date()) {
        let uses: Int? = state.withLock { state in
            state.uses += 1
            guard state.last.map({ now.timeIntervalSince($0) >= 60 }) ?? true else { return nil }
            defer { state = (now, 0) }
            return state.uses
        }
        guard let uses else { return }
        logger.warning(
            "break-glass operator token used; give each person a named operator",
            metadata: ["operator.uses": "\(uses)", "http.route": "\(route)"])
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
