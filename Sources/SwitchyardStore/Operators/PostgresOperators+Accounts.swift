import Foundation
import SwitchyardCore
import SwitchyardCrypto

/// An operator found by its token, with when its use was last recorded.
struct OperatorHit: Sendable {
    var value: Operator
    var usedAt: Date
}

extension PostgresOperators: OperatorRepository {
    /// The cache's one bucket: operators belong to no tenant.
    static let cacheBucket = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    public func createOperator(name: String, role: OperatorRole, expiresAt: Date?, secret: String, actor: String)
        async throws -> Operator
    {
        let now = clock()
        let created = Operator(
            id: UUID(), name: name, role: role, tokenPrefix: String(secret.prefix(11)), createdAt: now,
            expiresAt: expiresAt)
        do {
            try await system { c in
                try await c.query(
                    """
                    INSERT INTO operators (id, name, role, token_hash, token_prefix, created_at, expires_at)
                    VALUES ($1::uuid, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)
                    """,
                    [
                        .uuid(created.id), .text(name), .text(role.rawValue), .text(PostgresTenants.hashKey(secret)),
                        .text(created.tokenPrefix), .timestamp(now), expiresAt.map(PGValue.timestamp) ?? .null,
                    ])
                try await PostgresTenants.audit(
                    c, tenant: nil, actor: actor, action: "operator.create", target: created.id.uuidString.lowercased(),
                    details: ["name": name, "role": role.rawValue], at: now)
            }
        } catch let error as PGError where error.isUniqueViolation {
            throw CoreError(.operatorNameTaken, "an operator named '\(name)' exists already", param: "name")
        }
        database.configurationChanges.changedAll()
        return created
    }

    public func operators() async throws -> [Operator] {
        try await system { c in
            try await c.query("SELECT * FROM operators ORDER BY created_at, id").rows.map(Self.operatorRow)
        }
    }

    public func rotateOperator(id: UUID, secret: String, actor: String) async throws -> Operator {
        let now = clock()
        let rotated = try await system { c -> Operator in
            guard
                let row = try await c.query("SELECT * FROM operators WHERE id = $1::uuid FOR UPDATE", [.uuid(id)])
                    .first
            else { throw CoreError.notFound("operator") }
            var found = try Self.operatorRow(row)
            guard found.revokedAt == nil else {
                throw CoreError(.operatorRevoked, "the operator is revoked; add a new one instead")
            }
            found.tokenPrefix = String(secret.prefix(11))
            try await c.query(
                "UPDATE operators SET token_hash = $2, token_prefix = $3 WHERE id = $1::uuid",
                [.uuid(id), .text(PostgresTenants.hashKey(secret)), .text(found.tokenPrefix)])
            try await PostgresTenants.audit(
                c, tenant: nil, actor: actor, action: "operator.rotate", target: id.uuidString.lowercased(),
                details: ["name": found.name], at: now)
            return found
        }
        database.configurationChanges.changedAll()
        return rotated
    }

    public func revokeOperator(id: UUID, actor: String) async throws -> Operator {
        let now = clock()
        let revoked = try await system { c -> Operator in
            guard
                let row = try await c.query(
                    "UPDATE operators SET revoked_at = COALESCE(revoked_at, $2::timestamptz) WHERE id = $1::uuid RETURNING *",
                    [.uuid(id), .timestamp(now)]
                ).first
            else { throw CoreError.notFound("operator") }
            let found = try Self.operatorRow(row)
            try await PostgresTenants.audit(
                c, tenant: nil, actor: actor, action: "operator.revoke", target: id.uuidString.lowercased(),
                details: ["name": found.name], at: now)
            return found
        }
        database.configurationChanges.changedAll()
        return revoked
    }

    public func authenticateOperator(secret: String) async throws -> Operator? {
        let hash = PostgresTenants.hashKey(secret)
        let now = clock()
        let cache = database.operatorTokens
        if let cached = cache.value(for: hash) {
            guard cached.value.isUsable(at: now) else { return nil }
            if now.timeIntervalSince(cached.usedAt) < 60 { return cached.value }
        }
        let ticket = cache.ticket(tenant: Self.cacheBucket)
        let found = try await system { c in
            try await c.query("SELECT * FROM operators WHERE token_hash = $1", [.text(hash)]).first.map(
                Self.operatorRow)
        }
        guard let found else { return nil }
        if let ticket {
            cache.insert(OperatorHit(value: found, usedAt: now), for: hash, tenant: Self.cacheBucket, ticket: ticket)
        }
        guard found.isUsable(at: now) else { return nil }
        try await system { c in
            try await c.query(
                """
                UPDATE operators SET last_used_at = $2::timestamptz
                WHERE id = $1::uuid AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')
                """, [.uuid(found.id), .timestamp(now)])
        }
        return found
    }

    public func auditDenial(permission: OperatorPermission, method: String, route: String) async throws {
        let now = clock()
        try await system { c in
            try await PostgresTenants.audit(
                c, tenant: nil, actor: "operator", action: "operator.denied", target: "\(method) \(route)",
                details: ["permission": permission.rawValue], at: now)
        }
    }

    public func auditAction(tenant: UUID?, action: String, target: String, details: [String: String]) async throws {
        let now = clock()
        try await system { c in
            try await PostgresTenants.audit(
                c, tenant: tenant, actor: "operator", action: action, target: target, details: details, at: now)
        }
    }

    static func operatorRow(_ row: PGRow) throws -> Operator {
        let roleText = try row.string("role")
        guard let role = OperatorRole(rawValue: roleText) else {
            throw PGError.decoding("role", "unknown operator role \(roleText)")
        }
        return Operator(
            id: try row.uuid("id"), name: try row.string("name"), role: role,
            tokenPrefix: try row.string("token_prefix"), createdAt: try row.date("created_at"),
            expiresAt: row.optionalDate("expires_at"), revokedAt: row.optionalDate("revoked_at"),
            lastUsedAt: row.optionalDate("last_used_at"))
    }
}
