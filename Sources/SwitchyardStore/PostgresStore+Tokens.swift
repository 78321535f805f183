import Foundation
import SwitchyardCore

/// Provider access tokens, encrypted at rest and shared by every replica.
extension PostgresStore: AccessTokenStore {
    /// Runs `body` under the session-level advisory lock of an account's token of `kind` (see
    /// ``PGPool/withAdvisoryLock(key:wait:_:)``), so that one caller among every replica on this database
    /// refreshes it at a time. The lock's connection stays leased to `body`, whose calls on this store
    /// run on it: a refresh never needs a second connection while it holds the lock.
    ///
    /// - Returns: what `body` returned, or nil when the lock was not had within `wait`.
    public func withAccessTokenRefreshLock<T: Sendable>(
        accountId: UUID, kind: String, wait: Duration, _ body: @Sendable () async throws -> T
    ) async throws -> T? {
        try await pool.withAdvisoryLock(key: Self.tokenLockKey(accountId: accountId, kind: kind), wait: wait, body)
    }

    /// The advisory lock key of an account's token of `kind`: the stable hash of a namespaced name, the
    /// same in every process and version. Two names sharing a key only serialize their refreshes.
    static func tokenLockKey(accountId: UUID, kind: String) -> Int64 {
        Int64(bitPattern: StableHash.fnv1a("switchyard.provider_token/\(accountId.uuidString.lowercased())/\(kind)"))
    }

    /// The stored token for an account and kind, if any.
    public func accessToken(accountId: UUID, kind: String) async throws -> (token: String, expiresAt: Date)? {
        let row = try await system { c in
            try c.query(
                "SELECT token_encrypted, expires_at FROM provider_tokens WHERE account_id = $1::uuid AND kind = $2",
                [.uuid(accountId), .text(kind)]
            ).first
        }
        guard let row else { return nil }
        let token = try secrets.open(
            try row.string("token_encrypted"), context: "token/\(accountId.uuidString.lowercased())/\(kind)")
        return (token, try row.date("expires_at"))
    }

    /// Stores (replaces) the token for an account and kind.
    public func storeAccessToken(accountId: UUID, kind: String, token: String, expiresAt: Date) async throws {
        let sealed = try secrets.seal(token, context: "token/\(accountId.uuidString.lowercased())/\(kind)")
        let now = clock()
        try await system { c in
            try c.query(
                """
                INSERT INTO provider_tokens (account_id, kind, token_encrypted, expires_at, updated_at)
                VALUES ($1::uuid, $2, $3, $4::timestamptz, $5::timestamptz)
                ON CONFLICT (account_id, kind) DO UPDATE SET token_encrypted = EXCLUDED.token_encrypted,
                    expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at
                """,
                [.uuid(accountId), .text(kind), .text(sealed), .timestamp(expiresAt), .timestamp(now)])
        }
    }
}
