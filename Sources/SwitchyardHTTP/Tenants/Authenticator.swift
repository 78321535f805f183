import Foundation
import HTTPTypes
import Hummingbird
import SwitchyardCore
import SwitchyardCrypto

/// Who is calling: the platform operator, or a tenant's API key.
public enum Principal: Sendable {
    case `operator`
    case tenant(APIKey)
}

/// Checks bearer credentials: the operator token (compared by hash, in constant time) and API keys
/// (looked up by hash; revoked or expired keys are refused).
public struct Authenticator: Sendable {
    let operatorTokenHash: [UInt8]
    let keys: any APIKeyAuthenticating

    public init(operatorToken: String, keys: any APIKeyAuthenticating) {
        self.operatorTokenHash = SHA2.sha256(Array(operatorToken.utf8))
        self.keys = keys
    }

    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Requires the operator token.
    func requireOperator(_ request: Request) throws {
        guard let token = Self.bearer(request),
            constantTimeEquals(SHA2.sha256(Array(token.utf8)), operatorTokenHash)
        else { throw APIError.unauthorized }
    }

    /// Requires a usable API key with `scope`; `presented` is the key already found for this request's
    /// token, if any (it is looked up otherwise).
    func requireTenant(_ request: Request, scope: APIKeyScope, presented: PresentedKey?) async throws -> APIKey {
        guard let token = Self.bearer(request) else { throw APIError.unauthorized }
        guard Self.mayBeAPIKey(token), let key = try await key(for: token, presented: presented) else {
            throw APIError(.invalidAPIKey, "the API key is unknown, revoked or expired")
        }
        guard key.scopes.contains(scope) else {
            throw APIError(.insufficientScope, "this API key lacks the '\(scope.rawValue)' scope")
        }
        return key
    }

    /// Whether `token` has the shape of an API key secret (worth looking up).
    static func mayBeAPIKey(_ token: String) -> Bool {
        token.hasPrefix("sk_") && token.count < 200
    }

    /// The usable key with secret `token`: the one found earlier in this request, else the store's.
    private func key(for token: String, presented: PresentedKey?) async throws -> APIKey? {
        if let presented, presented.secret == token { return presented.key }
        return try await keys.authenticate(secret: token)
    }
}
