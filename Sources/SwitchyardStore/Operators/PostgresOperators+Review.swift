import Foundation
import SwitchyardCore

extension PostgresOperators {
    /// System scope: every tenant's accounts, without their credentials.
    public func accountSummaries() async throws -> [AccountSummary] {
        try await system { c in
            try await c.query(
                "SELECT id, tenant_id, name, plugin_id, enabled FROM provider_accounts ORDER BY tenant_id, id"
            )
            .rows.map { row in
                AccountSummary(
                    id: try row.uuid("id"), tenantId: try row.uuid("tenant_id"), name: try row.string("name"),
                    pluginId: try row.string("plugin_id"), enabled: try row.bool("enabled"))
            }
        }
    }

    /// System scope: payments flagged for manual review, oldest first (see ``PostgresPayments``).
    public func paymentsForReview(tenant: UUID?, limit: Int) async throws -> [Payment] {
        try await PostgresPayments(database: database).paymentsForReview(tenant: tenant, limit: limit)
    }

    /// System scope: verified notifications kept for review (their report was rejected), oldest first.
    public func notificationsForReview(tenant: UUID?, limit: Int) async throws -> [RejectedNotification] {
        let rows = try await system { c in
            try await c.query(
                """
                SELECT id, tenant_id, account_id, payment_id, review_code, review_message, received_at
                FROM notifications WHERE review_code IS NOT NULL AND review_resolved_at IS NULL
                    AND ($1::uuid IS NULL OR tenant_id = $1::uuid)
                ORDER BY received_at, id LIMIT $2::bigint
                """,
                [tenant.pg, .int(Int64(max(0, limit)))]
            ).rows
        }
        return try rows.map {
            RejectedNotification(
                id: try $0.int64("id"), tenantId: try $0.uuid("tenant_id"), accountId: try $0.uuid("account_id"),
                paymentId: $0.optionalString("payment_id"), code: try $0.string("review_code"),
                message: $0.optionalString("review_message"), receivedAt: try $0.date("received_at"))
        }
    }

    public func resolveReview(_ kind: ReviewItemKind, id: String, note: String, at: Date) async throws -> UUID? {
        let statement: String
        var params: [PGValue] = [.text(id), .timestamp(at)]
        switch kind {
        case .payment:
            statement = """
                UPDATE payments SET review_required = false, sync_count = 0, next_sync_at = $2::timestamptz
                WHERE id = $1 AND review_required RETURNING tenant_id
                """
        case .notification:
            guard let number = Int64(id) else { return nil }
            params = [.int(number), .timestamp(at), .text(note)]
            statement = """
                UPDATE notifications SET review_resolved_at = $2::timestamptz, review_note = $3
                WHERE id = $1::bigint AND review_code IS NOT NULL AND review_resolved_at IS NULL RETURNING tenant_id
                """
        case .refund:
            statement = """
                UPDATE refunds SET review_reason = NULL, sync_count = 0, next_sync_at = $2::timestamptz
                WHERE id = $1 AND review_reason IS NOT NULL AND status IN ('pending', 'unknown') RETURNING tenant_id
                """
        case .capture:
            statement = """
                UPDATE payment_operations SET review_reason = NULL, sync_count = 0, next_sync_at = $2::timestamptz
                WHERE id = $1 AND kind = 'capture' AND review_reason IS NOT NULL AND outcome IN ('pending', 'unknown')
                RETURNING tenant_id
                """
        }
        let arguments = params
        return try await system { c in
            try await c.query(statement, arguments).first.map { try $0.uuid("tenant_id") }
        }
    }

    /// System scope: refunds and captures still open that were listed for review, oldest first.
    public func operationsForReview(tenant: UUID?, limit: Int) async throws -> [OperationForReview] {
        let rows = try await system { c in
            try await c.query(
                """
                SELECT * FROM (
                    SELECT 'refund' AS kind, id, tenant_id, payment_id, amount, status, review_reason, sync_count,
                        created_at
                    FROM refunds WHERE review_reason IS NOT NULL AND status IN ('pending', 'unknown')
                    UNION ALL
                    SELECT 'capture', id, tenant_id, payment_id, amount, outcome, review_reason, sync_count,
                        created_at
                    FROM payment_operations WHERE review_reason IS NOT NULL AND kind = 'capture'
                        AND outcome IN ('pending', 'unknown')
                ) open WHERE $1::uuid IS NULL OR tenant_id = $1::uuid
                ORDER BY created_at, id LIMIT $2::bigint
                """,
                [tenant.pg, .int(Int64(max(0, limit)))]
            ).rows
        }
        return try rows.map {
            OperationForReview(
                kind: OpenOperation.Kind(rawValue: try $0.string("kind")) ?? .refund, id: try $0.string("id"),
                tenantId: try $0.uuid("tenant_id"), paymentId: try $0.string("payment_id"),
                amount: $0.optionalInt64("amount"), status: try $0.string("status"),
                reason: try $0.string("review_reason"), syncs: Int(try $0.int64("sync_count")),
                createdAt: try $0.date("created_at"))
        }
    }
}
