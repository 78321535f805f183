import Foundation
import SwitchyardCore

/// The refresh lock of a provider token: a row of `provider_token_locks` naming its holder until a
/// lease expires, taken and released in short statements of their own, so that no pooled connection is
/// held while the holder calls the provider.
extension PostgresAccessTokens {
    /// Runs `body` holding the refresh lock of an account's token of `kind`, so that one caller among
    /// every replica on this database refreshes it at a time.
    ///
    /// The lock is taken with one statement that inserts the lock row, or takes over one whose lease
    /// has expired (the database's clock decides, the same for every replica); while another caller
    /// holds it, it is tried again after a short pause (5 ms, doubling up to 50 ms) until `wait` has
    /// passed. The row is deleted, when still ours, however `body` ends; a holder that dies leaves it
    /// until `lease` has passed.
    ///
    /// - Returns: what `body` returned, or nil when the lock was not had within `wait`.
    public func withAccessTokenRefreshLock<T: Sendable>(
        accountId: UUID, kind: String, wait: Duration, lease: Duration, _ body: @Sendable () async throws -> T
    ) async throws -> T? {
        let holder = UUID().uuidString.lowercased()
        let leaseMs = max(1, lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000)
        let taken: Bool? = try await PGPolling.retry(for: wait) {
            try await takeTokenLock(accountId: accountId, kind: kind, holder: holder, leaseMs: leaseMs) ? true : nil
        }
        guard taken == true else { return nil }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        // Released even when this task was cancelled; a failed release leaves the lease to expire.
        let release = Task { try await releaseTokenLock(accountId: accountId, kind: kind, holder: holder) }
        do {
            try await release.value
        } catch {
            logger.warning(
                "token lock release failed; it expires with its lease",
                metadata: ["provider.account": "\(accountId)", "token.kind": "\(kind)"])
        }
        return try outcome.get()
    }

    /// Takes the lock row for `holder` unless another holder's lease is still running.
    private func takeTokenLock(accountId: UUID, kind: String, holder: String, leaseMs: Int64) async throws -> Bool {
        try await system { c in
            try await c.query(
                """
                INSERT INTO provider_token_locks (account_id, kind, holder, expires_at)
                VALUES ($1::uuid, $2, $3, clock_timestamp() + $4::bigint * interval '1 millisecond')
                ON CONFLICT (account_id, kind) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                    WHERE provider_token_locks.expires_at < clock_timestamp()
                RETURNING holder
                """,
                [.uuid(accountId), .text(kind), .text(holder), .int(leaseMs)]
            ).first != nil
        }
    }

    /// Deletes the lock row if `holder` still holds it.
    private func releaseTokenLock(accountId: UUID, kind: String, holder: String) async throws {
        try await system { c in
            try await c.query(
                "DELETE FROM provider_token_locks WHERE account_id = $1::uuid AND kind = $2 AND holder = $3",
                [.uuid(accountId), .text(kind), .text(holder)])
        }
    }
}
