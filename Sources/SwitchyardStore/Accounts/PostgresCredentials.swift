import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto

/// Customers' stored credentials, their tokens sealed, over the shared ``PostgresDatabase``.
public struct PostgresCredentials: CredentialRepository, PostgresRepository {
    let database: PostgresDatabase
}

/// Customers' stored credentials: the provider token sealed under the key-encryption key (bound to the
/// credential's id), and a digest of it for look-ups by token.
extension PostgresCredentials {
    static let upsertCredential = """
        INSERT INTO stored_credentials (id, tenant_id, customer_id, account_id, plugin_id, kind, status,
            correlation_id, token, token_digest, payment_method_type, display, session, origin_payment_id,
            failure_code, failure_message, expires_at, created_at, updated_at, metadata, description, livemode)
        VALUES ($1, $2::uuid, $3, $4::uuid, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15, $16,
            $17::timestamptz, $18::timestamptz, $19::timestamptz, $20::jsonb, $21, $22::boolean)
        ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, token = EXCLUDED.token,
            token_digest = EXCLUDED.token_digest, payment_method_type = EXCLUDED.payment_method_type,
            display = EXCLUDED.display, session = EXCLUDED.session, failure_code = EXCLUDED.failure_code,
            failure_message = EXCLUDED.failure_message, expires_at = EXCLUDED.expires_at,
            updated_at = EXCLUDED.updated_at
        """

    public func saveCredential(_ credential: StoredPaymentMethod) async throws {
        let params = try credentialParameters(credential)
        try await tenantScoped(credential.tenantId) { c in
            let previous = try await PostgresOutbox.lockedStatus("stored_credentials", id: credential.id, on: c)
            try await c.query(Self.upsertCredential, params)
            try await self.announce(credential, previous: previous, on: c)
        }
    }

    public func updateCredential(
        tenant: UUID, id: String, _ body: @escaping @Sendable (inout StoredPaymentMethod) -> Bool
    ) async throws -> StoredPaymentMethod? {
        try await tenantScoped(tenant) { c in
            guard
                let row = try await c.query("SELECT * FROM stored_credentials WHERE id = $1 FOR UPDATE", [.text(id)])
                    .first
            else { return nil }
            var credential = try self.credential(from: row)
            let previous = credential.status
            guard body(&credential) else { return credential }
            try await c.query(Self.upsertCredential, try self.credentialParameters(credential))
            try await self.announce(credential, previous: previous.rawValue, on: c)
            return credential
        }
    }

    /// The upsert's parameters: the token sealed under the key-encryption key, bound to the credential's id.
    private func credentialParameters(_ credential: StoredPaymentMethod) throws -> [PGValue] {
        let sealed = try credential.token.map { try secrets.seal($0, context: SealContext.credential(credential.id)) }
        let digest = credential.token.map { Self.tokenDigest($0, accountId: credential.accountId) }
        return [
            .text(credential.id), .uuid(credential.tenantId), .text(credential.customerId), .uuid(credential.accountId),
            .text(credential.pluginId), .text(credential.kind), .text(credential.status.rawValue),
            .text(credential.correlationId), sealed.pg, digest.pg, credential.paymentMethodType.pg,
            try credential.display.map { .json(try StoreJSON.encode($0)) } ?? .null,
            try credential.session.map { .json(try StoreJSON.encode($0)) } ?? .null,
            credential.originPaymentId.pg, credential.failureCode.pg, credential.failureMessage.pg,
            credential.expiresAt.pg, .timestamp(credential.createdAt), .timestamp(credential.updatedAt),
            .json(try StoreJSON.encode(credential.metadata)), credential.merchantDescription.pg,
            .bool(credential.livemode),
        ]
    }

    public func credential(tenant: UUID, id: String) async throws -> StoredPaymentMethod? {
        try await oneCredential(tenant, "SELECT * FROM stored_credentials WHERE id = $1", [.text(id)])
    }

    public func credential(tenant: UUID, accountId: UUID, correlationId: String) async throws
        -> StoredPaymentMethod?
    {
        try await oneCredential(
            tenant, "SELECT * FROM stored_credentials WHERE account_id = $1::uuid AND correlation_id = $2",
            [.uuid(accountId), .text(correlationId)])
    }

    public func credential(tenant: UUID, accountId: UUID, token: String) async throws -> StoredPaymentMethod? {
        try await oneCredential(
            tenant,
            "SELECT * FROM stored_credentials WHERE account_id = $1::uuid AND token_digest = $2 ORDER BY created_at DESC LIMIT 1",
            [.uuid(accountId), .text(Self.tokenDigest(token, accountId: accountId))])
    }

    /// A customer's credentials, newest first, without their tokens (a list is for showing, never for paying).
    public func credentials(tenant: UUID, customerId: String) async throws -> [StoredPaymentMethod] {
        let rows = try await tenantScoped(tenant) { c in
            try await c.query(
                "SELECT \(Self.listedCredentialColumns) FROM stored_credentials WHERE customer_id = $1 "
                    + "ORDER BY created_at DESC, id",
                [.text(customerId)]
            ).rows
        }
        return try rows.map(credential(from:))
    }

    /// The rows of `page` of a customer's credentials, without their tokens.
    public func credentials(tenant: UUID, customerId: String, page: PageRequest) async throws
        -> [StoredPaymentMethod]
    {
        let rows = try await tenantScoped(tenant) { c in
            try await Self.credentialPages.rows(c, page, scope: ["customer_id = $1"], params: [.text(customerId)])
        }
        return try rows.map(credential(from:))
    }

    /// Every column of a listed credential but its token.
    static let listedCredentialColumns = """
        id, tenant_id, customer_id, account_id, plugin_id, kind, status, correlation_id, payment_method_type, \
        display, session, origin_payment_id, failure_code, failure_message, expires_at, created_at, updated_at, \
        livemode, metadata, description
        """

    static let credentialPages = PageQuery(
        table: "stored_credentials", columns: listedCredentialColumns, livemodeColumn: "livemode")

    private func oneCredential(_ tenant: UUID, _ sql: String, _ params: [PGValue]) async throws
        -> StoredPaymentMethod?
    {
        let row = try await tenantScoped(tenant, repeatable: PGStatement(sql, params)).first
        return try row.map(credential(from:))
    }

    private func credential(from row: PGRow) throws -> StoredPaymentMethod {
        let id = try row.string("id")
        var credential = StoredPaymentMethod(
            id: id, tenantId: try row.uuid("tenant_id"), customerId: try row.string("customer_id"),
            accountId: try row.uuid("account_id"), pluginId: try row.string("plugin_id"), kind: try row.string("kind"),
            correlationId: try row.string("correlation_id"), originPaymentId: row.optionalString("origin_payment_id"),
            createdAt: try row.date("created_at"))
        credential.status = StoredPaymentMethod.Status(rawValue: try row.string("status")) ?? .failed
        credential.token = try row.optionalString("token").map {
            try secrets.open($0, context: SealContext.credential(id))
        }
        credential.paymentMethodType = row.optionalString("payment_method_type")
        credential.display = try row.optionalString("display").map { try StoreJSON.decode(CredentialDisplay.self, $0) }
        credential.session = try row.optionalString("session").map { try StoreJSON.decode(NextAction.self, $0) }
        credential.failureCode = row.optionalString("failure_code")
        credential.failureMessage = row.optionalString("failure_message")
        credential.expiresAt = row.optionalDate("expires_at")
        credential.updatedAt = try row.date("updated_at")
        credential.metadata = try StoreJSON.metadata(row)
        credential.merchantDescription = row.optionalString("description")
        credential.livemode = try row.bool("livemode")
        return credential
    }

    /// Look-up digest of a token at an account (the token itself is never stored in clear).
    static func tokenDigest(_ token: String, accountId: UUID) -> String {
        Hex.encode(SHA2.sha256(accountId.uuidString.lowercased() + ":" + token))
    }
}

extension PostgresCredentials {
    public func stalePendingCredentials(now: Date, limit: Int) async throws -> [(tenant: UUID, id: String)] {
        let rows = try await system { c in
            try await c.query(
                """
                SELECT c.tenant_id, c.id FROM stored_credentials c
                LEFT JOIN payments p ON p.id = c.origin_payment_id
                WHERE c.status = 'pending' AND (
                    (c.session ? 'expiresAt'
                        AND (c.session->>'expiresAt')::double precision <= extract(epoch FROM $1::timestamptz))
                    OR (p.id IS NOT NULL AND p.status <> 'processing'
                        AND p.provider_account_id IS DISTINCT FROM c.account_id))
                ORDER BY c.created_at LIMIT $2::bigint
                """,
                [.timestamp(now), .int(Int64(limit))]
            ).rows
        }
        return try rows.map { (tenant: try $0.uuid("tenant_id"), id: try $0.string("id")) }
    }
}
