import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto

/// Inbound provider notifications, verified and not, over the shared ``PostgresDatabase``.
public struct PostgresNotifications: NotificationLog, PostgresRepository {
    let database: PostgresDatabase
}

extension PostgresNotifications {
    public func recordVerified(
        accountId: UUID, tenantId: UUID, headers: [HTTPHeader], body: Data, signedContent: Data, at time: Date
    ) async throws -> VerifiedNotificationRecord {
        let dedupKey = Hex.encode(SHA2.sha256([UInt8](signedContent)))
        let headersJSON = try Self.storedHeaders(headers)
        // The no-op update makes a replay return the first row, so its application state is known (and the
        // statement repeatable).
        let row = try await tenantScoped(
            tenantId,
            repeatable: PGStatement(
                """
                INSERT INTO notifications (tenant_id, account_id, body_hash, headers, body, verified, received_at)
                VALUES ($1::uuid, $2::uuid, $3, $4::jsonb, $5::bytea, true, $6::timestamptz)
                ON CONFLICT (account_id, body_hash) WHERE verified
                DO UPDATE SET body_hash = notifications.body_hash
                RETURNING id, applied_at
                """,
                [
                    .uuid(tenantId), .uuid(accountId), .text(dedupKey), .json(headersJSON), .bytea([UInt8](body)),
                    .timestamp(time),
                ])
        ).rows.first
        guard let row else { throw StoreError.corrupt("the notification was not recorded") }
        if row.optionalDate("applied_at") != nil { return .applied }
        return .toApply(id: try row.int64("id"))
    }

    public func markApplied(id: Int64, tenantId: UUID, at time: Date) async throws {
        _ = try await tenantScoped(
            tenantId,
            repeatable: PGStatement(
                "UPDATE notifications SET applied_at = $2::timestamptz WHERE id = $1::bigint AND applied_at IS NULL",
                [.int(id), .timestamp(time)]))
    }

    public func markRejected(
        id: Int64, tenantId: UUID, paymentId: String, rejection: ReportRejection, at time: Date
    ) async throws {
        _ = try await tenantScoped(
            tenantId,
            repeatable: PGStatement(
                """
                UPDATE notifications SET applied_at = $2::timestamptz, review_code = $3, review_message = $4,
                    payment_id = $5
                WHERE id = $1::bigint AND applied_at IS NULL
                """,
                [.int(id), .timestamp(time), .text(rejection.code), .text(rejection.message), .text(paymentId)]))
    }

    public func recordUnverified(
        accountId: UUID, tenantId: UUID, headers: [HTTPHeader], body: Data, failureReason: String?, at time: Date,
        cap: Int, since: Date
    ) async throws -> Bool {
        let hash = Hex.encode(SHA2.sha256([UInt8](body)))
        let headersJSON = try Self.storedHeaders(headers)
        return try await tenantScoped(tenantId) { c in
            // Locks the account's intake row, so concurrent posts count against the cap one at a time.
            _ = try await c.query(
                """
                INSERT INTO notification_intake (account_id, tenant_id) VALUES ($1::uuid, $2::uuid)
                ON CONFLICT (account_id) DO UPDATE SET unverified_dropped = notification_intake.unverified_dropped
                """,
                [.uuid(accountId), .uuid(tenantId)])
            let inserted = try await c.query(
                """
                INSERT INTO notifications (tenant_id, account_id, body_hash, headers, body, verified, failure_reason, received_at)
                SELECT $1::uuid, $2::uuid, $3, $4::jsonb, $5::bytea, false, $6, $7::timestamptz
                WHERE (SELECT count(*) FROM notifications
                       WHERE account_id = $2::uuid AND NOT verified AND received_at > $8::timestamptz) < $9::bigint
                """,
                [
                    .uuid(tenantId), .uuid(accountId), .text(hash), .json(headersJSON), .bytea([UInt8](body)),
                    failureReason.pg, .timestamp(time), .timestamp(since), .int(Int64(cap)),
                ])
            let stored = inserted.affectedRows == 1
            if !stored {
                _ = try await c.query(
                    """
                    UPDATE notification_intake SET unverified_dropped = unverified_dropped + 1
                    WHERE account_id = $1::uuid
                    """,
                    [.uuid(accountId)])
            }
            return stored
        }
    }

    public func claimUnverifiedSync(accountId: UUID, tenantId: UUID, at time: Date, notAfter: Date) async throws
        -> Bool
    {
        try await tenantScoped(tenantId) { c in
            try await c.query(
                """
                INSERT INTO notification_intake (account_id, tenant_id, last_unverified_sync_at)
                VALUES ($1::uuid, $2::uuid, $3::timestamptz)
                ON CONFLICT (account_id) DO UPDATE SET last_unverified_sync_at = EXCLUDED.last_unverified_sync_at
                WHERE notification_intake.last_unverified_sync_at IS NULL
                   OR notification_intake.last_unverified_sync_at <= $4::timestamptz
                """,
                [.uuid(accountId), .uuid(tenantId), .timestamp(time), .timestamp(notAfter)]
            ).affectedRows == 1
        }
    }

    public func purgeUnverified(before cutoff: Date, limit: Int) async throws -> Int {
        try await system { c in
            try await c.query(
                """
                DELETE FROM notifications WHERE id IN (
                    SELECT id FROM notifications WHERE NOT verified AND received_at < $1::timestamptz
                    LIMIT $2::bigint)
                """,
                [.timestamp(cutoff), .int(Int64(max(0, limit)))]
            ).affectedRows
        }
    }

    /// Notifications received for a tenant, newest first (for inspection).
    public func notifications(tenant: UUID, limit: Int) async throws -> [(
        id: Int64, accountId: UUID, verified: Bool, receivedAt: Date
    )] {
        let rows = try await tenantScoped(tenant) { c in
            try await c.query(
                "SELECT id, account_id, verified, received_at FROM notifications ORDER BY id DESC LIMIT $1::bigint",
                [.int(Int64(limit))]
            ).rows
        }
        return try rows.map {
            (
                id: try $0.int64("id"), accountId: try $0.uuid("account_id"), verified: try $0.bool("verified"),
                receivedAt: try $0.date("received_at")
            )
        }
    }

    /// The headers as stored: without the ones that carry credentials.
    static func storedHeaders(_ headers: [HTTPHeader]) throws -> String {
        try StoreJSON.encode(headers.filter { !isSensitiveHeader($0.name) })
    }

    static func isSensitiveHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "authorization" || lower == "cookie" || lower.contains("token") || lower.contains("secret")
            || lower.contains("api-key")
    }
}
