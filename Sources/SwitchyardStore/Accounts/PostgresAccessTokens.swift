import Foundation
import SwitchyardCore

/// Provider access tokens, sealed, and their refresh locks, over the shared ``PostgresDatabase``.
public struct PostgresAccessTokens: AccessTokenStore, PostgresRepository {
    let database: PostgresDatabase
}

/// Provider access tokens, encrypted at rest and shared by every replica.
extension PostgresAccessTokens {
    /// The stored token for an account and kind, if any.
    public func accessToken(accountId: UUID, kind: String) async throws -> (token: String, expiresAt: Date)? {
        let row = try await system { c in
            try await c.query(
                "SELECT token_encrypted, expires_at FROM provider_tokens WHERE account_id = $1::uuid AND kind = $2",
                [.uuid(accountId), .text(kind)]
            ).first
        }
        guard let row else { return nil }
        let token = try secrets.open(
            try row.string("token_encrypted"), context: SealContext.token(accountId, kind: kind))
        return (token, try row.date("expires_at"))
    }

    /// Stores (replaces) the token for an account and kind.
    public func storeAccessToken(accountId: UUID, kind: String, token: String, expiresAt: Date) async throws {
        let sealed = try secrets.seal(token, context: SealContext.token(accountId, kind: kind))
        let now = clock()
        try await system { c in
            try await c.query(
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
