import Foundation
import HTTPTypes
import Hummingbird
import SwitchyardCore
import SwitchyardCrypto

/// Who is calling: an operator (stored, or the bootstrap token), or a tenant's API key.
public enum Principal: Sendable {
    case `operator`(OperatorIdentity)
    case tenant(APIKey)
}

/// Checks bearer credentials: the operator token (compared by hash, in constant time) and API keys
/// (looked up by hash; revoked or expired keys are refused).
public struct Authenticator: Sendable {
    let operatorTokenHash: [UInt8]
    let keys: any APIKeyAuthenticating
    /// Stored operators; nil: only the bootstrap token is accepted.
    let operators: (any OperatorRepository)?
    /// The policy's `operator_sso` section as it is now.
    let singleSignOn: @Sendable () -> OperatorSingleSignOn

    public init(
        operatorToken: String, keys: any APIKeyAuthenticating, operators: (any OperatorRepository)? = nil,
        singleSignOn: @escaping @Sendable () -> OperatorSingleSignOn = { OperatorSingleSignOn() }
    ) {
        self.operatorTokenHash = SHA2.sha256(Array(operatorToken.utf8))
        self.keys = keys
        self.operators = operators
        self.singleSignOn = singleSignOn
    }

    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = Self.trimmingWhitespace(parts[1])
        return token.isEmpty ? nil : token
    }

    /// `text` without the whitespace around it (Foundation's `.whitespaces`: spaces and tabs), which in ASCII
    /// text are only spaces and tabs.
    private static func trimmingWhitespace(_ text: Substring) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.trimmingCharacters(in: .whitespaces) }
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// Requires an operator credential: the bootstrap token (the break-glass admin), a usable stored
    /// operator's token, or (with `operator_sso` on and no bearer token) the identity headers of a trusted
    /// proxy at `remoteAddress`; `401 unauthorized` otherwise (unknown, revoked and expired tokens alike),
    /// `403 forbidden` for identity headers from another address or naming no group with a role.
    func requireOperator(_ request: Request, remoteAddress: String?) async throws -> OperatorIdentity {
        guard let token = Self.bearer(request) else {
            return try singleSignOnIdentity(request, remoteAddress: remoteAddress)
        }
        if constantTimeEquals(SHA2.sha256(Array(token.utf8)), operatorTokenHash) { return .bootstrap }
        guard let operators, OperatorTokens.mayBeOperatorToken(token),
            let found = try await operators.authenticateOperator(secret: token)
        else { throw APIError.unauthorized }
        return OperatorIdentity(found)
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

    /// The operator a trusted proxy names in the request's headers (see ``OperatorSingleSignOn``).
    private func singleSignOnIdentity(_ request: Request, remoteAddress: String?) throws -> OperatorIdentity {
        let sso = singleSignOn()
        guard sso.enabled, let userName = HTTPField.Name(sso.userHeader), let user = request.headers[userName],
            !user.isEmpty
        else { throw APIError.unauthorized }
        guard sso.trusts(remoteAddress) else {
            throw APIError(.forbidden, "identity headers are accepted only from the configured proxies")
        }
        let groups =
            HTTPField.Name(sso.groupsHeader).flatMap { request.headers[$0] }.map {
                $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            } ?? []
        guard user.count <= Operator.maximumNameLength, let identity = sso.identity(user: user, groups: groups) else {
            throw APIError(.forbidden, "none of the signed-in person's groups has an operator role")
        }
        return identity
    }
}
