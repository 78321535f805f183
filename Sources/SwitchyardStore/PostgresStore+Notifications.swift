import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto

extension PostgresStore: NotificationLog {
    public func recordNotification(
        accountId: UUID, tenantId: UUID, headers: [HTTPHeader], body: Data, verified: Bool, failureReason: String?
    ) async throws -> Bool {
        let hash = Hex.encode(SHA2.sha256([UInt8](body)))
        let headersJSON = try StoreJSON.encode(headers.filter { !Self.isSensitiveHeader($0.name) })
        let now = clock()
        return try await tenantScoped(tenantId) { c in
            let result = try c.query(
                """
                INSERT INTO notifications (tenant_id, account_id, body_hash, headers, body, verified, failure_reason, received_at)
                VALUES ($1::uuid, $2::uuid, $3, $4::jsonb, $5::bytea, $6::boolean, $7, $8::timestamptz)
                ON CONFLICT (account_id, body_hash) WHERE verified DO NOTHING
                """,
                [
                    .uuid(tenantId), .uuid(accountId), .text(hash), .json(headersJSON), .bytea([UInt8](body)),
                    .bool(verified), failureReason.pg, .timestamp(now),
                ])
            return result.affectedRows == 1
        }
    }

    /// Notifications received for a tenant, newest first (for inspection).
    public func notifications(tenant: UUID, limit: Int) async throws -> [(
        id: Int64, accountId: UUID, verified: Bool, receivedAt: Date
    )] {
        let rows = try await tenantScoped(tenant) { c in
            try c.query(
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

    static func isSensitiveHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "authorization" || lower == "cookie" || lower.contains("token") || lower.contains("secret")
            || lower.contains("api-key")
    }
}
