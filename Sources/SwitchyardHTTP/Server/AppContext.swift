import Foundation
import Hummingbird
import Logging
import SwitchyardCore

/// The request context of every Switchyard route.
///
/// Authentication middleware (``OperatorAuthentication``, ``TenantAuthentication``) on a route group puts
/// the caller in ``principal`` before the handler runs; handlers read it and never check credentials
/// themselves.
public struct AppContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who is calling: set by the authentication middleware of the route's group, nil on open routes.
    public var principal: Principal?
    /// The API key the bearer token of this request resolved to, looked up once by
    /// ``TenantLimitMiddleware`` (not yet checked for a scope), with that token.
    var presentedKey: PresentedKey?
    /// The id ``RequestIDMiddleware`` gave the request, quoted in every error body as `request_id`.
    var requestID: String?
    /// The merchant API version of a `/v1` request, chosen by ``APIVersionMiddleware``.
    var apiVersion: APIVersion?
    /// The address of the connection the request came on (the peer, a proxy if one is in front).
    var remoteAddress: String?

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The operator behind an authenticated admin request.
    var operatorIdentity: OperatorIdentity {
        get throws {
            guard case .operator(let identity) = principal else { throw APIError.unauthorized }
            return identity
        }
    }

    /// Bodies are read by ``JSONIO`` with the policy's own limit.
    public var maxUploadSize: Int { 1 << 20 }

    /// The API key of an authenticated merchant request.
    var apiKey: APIKey {
        get throws {
            guard case .tenant(let key) = principal else { throw APIError.unauthorized }
            return key
        }
    }

    /// The tenant of an authenticated merchant request.
    var tenant: UUID {
        get throws { try apiKey.tenantId }
    }
}

/// An API key found for the bearer token of a request.
struct PresentedKey: Sendable {
    var secret: String
    var key: APIKey
}
