import Foundation
import SwitchyardCore

/// `Idempotency-Key`s under a lease: the request that owns a key in progress is named by `owner`, a random
/// id per request, and holds it until `locked_until`. Every change a request makes to its key is conditional
/// on still owning it, so a request that lost its key to a takeover can no longer change it. A key is
/// answered once `completed_at` is set; what it answered is stored as an outcome (see
/// ``IdempotentOutcome`` and ``Schema`` migration 16), never as a response body.
extension PostgresIdempotencyKeys {
    /// Claims `key` for `owner` for `lease` seconds: a new key, or one whose previous owner's lease ran out
    /// without an answer (taken over atomically: of several retries exactly one resumes).
    public func claimIdempotent(
        tenant: UUID, key: String, requestHash: String, owner: String, lease: TimeInterval
    ) async throws -> IdempotencyClaim {
        let now = clock()
        let until = now.addingTimeInterval(lease)
        // A new key, the common case, is claimed in one round trip; any other finds the key's state in a
        // transaction of its own.
        let fresh = try await tenantScoped(
            tenant,
            repeatable: Self.claimingNew(
                tenant: tenant, key: key, requestHash: requestHash, owner: owner, now: now, until: until))
        if fresh.affectedRows == 1 { return .proceed }
        return try await tenantScoped(tenant) { c in
            try await Self.claim(
                tenant: tenant, key: key, requestHash: requestHash, owner: owner, now: now, until: until, on: c)
        }
    }

    /// The statement that claims `key` when no request has used it: one row when it inserted the key, or
    /// found it unanswered under the same `owner` (so it is repeatable: a second run after the first
    /// committed answers the same); none when another request holds or answered the key.
    static func claimingNew(
        tenant: UUID, key: String, requestHash: String, owner: String, now: Date, until: Date
    ) -> PGStatement {
        PGStatement(
            """
            INSERT INTO idempotency_keys (tenant_id, key, request_hash, created_at, owner, locked_until)
            VALUES ($1::uuid, $2, $3, $4::timestamptz, $5, $6::timestamptz)
            ON CONFLICT (tenant_id, key) DO UPDATE SET owner = EXCLUDED.owner
            WHERE idempotency_keys.owner = EXCLUDED.owner AND idempotency_keys.completed_at IS NULL
                AND idempotency_keys.request_hash = EXCLUDED.request_hash
            """,
            [.uuid(tenant), .text(key), .text(requestHash), .timestamp(now), .text(owner), .timestamp(until)])
    }

    /// Claims `key` inside the caller's transaction (see ``claimIdempotent(tenant:key:requestHash:owner:lease:)``).
    static func claim(
        tenant: UUID, key: String, requestHash: String, owner: String, now: Date, until: Date, on c: PGConnection
    ) async throws -> IdempotencyClaim {
        let inserted = try await c.query(
            """
            INSERT INTO idempotency_keys (tenant_id, key, request_hash, created_at, owner, locked_until)
            VALUES ($1::uuid, $2, $3, $4::timestamptz, $5, $6::timestamptz) ON CONFLICT DO NOTHING
            """,
            [.uuid(tenant), .text(key), .text(requestHash), .timestamp(now), .text(owner), .timestamp(until)])
        if inserted.affectedRows == 1 { return .proceed }
        guard
            let row = try await c.query(
                """
                SELECT request_hash, response_status, response_body, resource_kind, resource_id, resource_parent,
                    error_code, error_message, error_details, completed_at, locked_until
                FROM idempotency_keys WHERE key = $1
                """,
                [.text(key)]
            ).first
        else { return .held(until: nil) }
        if try row.string("request_hash") != requestHash { return .mismatch }
        if row.optionalDate("completed_at") != nil { return .replay(try Self.outcome(row)) }
        // Re-checked under the row lock, so a concurrent takeover leaves this one with no row.
        let taken = try await c.query(
            """
            UPDATE idempotency_keys SET owner = $2, locked_until = $3::timestamptz
            WHERE key = $1 AND completed_at IS NULL
                AND (locked_until IS NULL OR locked_until < $4::timestamptz)
            RETURNING resource_id
            """,
            [.text(key), .text(owner), .timestamp(until), .timestamp(now)])
        if let row = taken.rows.first { return .resume(resourceId: row.optionalString("resource_id")) }
        return .held(until: row.optionalDate("locked_until"))
    }

    /// The outcome an answered key's row stores. `response_status` says whether a resource was created
    /// (201) or acted on; a row answered before migration 16 stored the response's body instead, which is
    /// read back as the outcome it answered (see ``legacyOutcome(status:body:)``).
    static func outcome(_ row: PGRow) throws -> IdempotentOutcome {
        let status = row.optionalInt64("response_status").map { Int($0) }
        if let code = row.optionalString("error_code") {
            var error = CoreError(
                ErrorCode(rawValue: code) ?? .internalError, row.optionalString("error_message") ?? "")
            if let details = row.optionalString("error_details") {
                let pointers = try StoreJSON.decode(ErrorPointers.self, details)
                (error.param, error.declineCode, error.providerCode) =
                    (pointers.param, pointers.declineCode, pointers.providerCode)
            }
            return .failure(error)
        }
        if let kind = row.optionalString("resource_kind").flatMap(IdempotentResource.Kind.init(rawValue:)),
            let id = row.optionalString("resource_id")
        {
            return .resource(
                IdempotentResource(
                    kind: kind, id: id, parent: row.optionalString("resource_parent"), created: status == 201))
        }
        return legacyOutcome(status: status, body: Data(row.optionalBytes("response_body") ?? []))
    }

    /// The outcome a response stored before migration 16 answered: the resource its body names (`object`,
    /// `id`, a payment method's `customer`), or the error of its `{"error":…}` envelope. A body that names
    /// neither replays as an internal error, never as a success it cannot show.
    static func legacyOutcome(status: Int?, body: Data) -> IdempotentOutcome {
        struct Body: Decodable {
            struct Failure: Decodable {
                var code: String
                var message: String?
                var param: String?
                var declineCode: String?
                var providerCode: String?

                enum CodingKeys: String, CodingKey {
                    case code, message, param
                    case declineCode = "decline_code"
                    case providerCode = "provider_code"
                }
            }
            var object: String?
            var id: String?
            var customer: String?
            var error: Failure?
        }
        let parsed = try? JSONDecoder().decode(Body.self, from: body)
        if let failure = parsed?.error {
            return .failure(
                CoreError(
                    ErrorCode(rawValue: failure.code) ?? .internalError, failure.message ?? "",
                    param: failure.param, declineCode: failure.declineCode, providerCode: failure.providerCode))
        }
        if let parsed, let id = parsed.id, let kind = parsed.object.flatMap(IdempotentResource.Kind.init(rawValue:)) {
            return .resource(IdempotentResource(kind: kind, id: id, parent: parsed.customer, created: status == 201))
        }
        return .failure(CoreError(.internalError, "the request's answer could not be read again"))
    }

    /// Records what the owner of `key` created (a payment or refund id), so a request that takes the key over
    /// finds it. False when `owner` no longer owns the key.
    @discardableResult
    public func linkIdempotent(tenant: UUID, key: String, owner: String, resourceId: String) async throws -> Bool {
        try await tenantScoped(tenant) { c in try await Self.link(key: key, owner: owner, resourceId: resourceId, on: c)
        }
    }

    /// Records `resourceId` under `key` inside the caller's transaction; false when `owner` no longer owns it.
    @discardableResult
    static func link(key: String, owner: String, resourceId: String, on c: PGConnection) async throws -> Bool {
        let statement = linking(key: key, owner: owner, resourceId: resourceId)
        return try await c.query(statement.sql, statement.params).affectedRows == 1
    }

    /// The statement of ``link(key:owner:resourceId:on:)``: one row updated when `owner` still holds `key`.
    static func linking(key: String, owner: String, resourceId: String) -> PGStatement {
        PGStatement(
            """
            UPDATE idempotency_keys SET resource_id = $3
            WHERE key = $1 AND owner = $2 AND completed_at IS NULL
            """,
            [.text(key), .text(owner), .text(resourceId)])
    }

    /// Stores what the request that still owns `key` answered; false (nothing stored) when another request
    /// took the key over.
    @discardableResult
    public func finishIdempotent(tenant: UUID, key: String, owner: String, outcome: IdempotentOutcome)
        async throws -> Bool
    {
        let now = clock()
        let statement = try Self.finishing(key: key, owner: owner, outcome: outcome, now: now)
        return try await tenantScoped(tenant, repeatable: statement).affectedRows == 1
    }

    /// Stores an outcome for `key` inside the caller's transaction; false when `owner` no longer owns it.
    @discardableResult
    static func finish(key: String, owner: String, outcome: IdempotentOutcome, now: Date, on c: PGConnection)
        async throws -> Bool
    {
        let statement = try finishing(key: key, owner: owner, outcome: outcome, now: now)
        return try await c.query(statement.sql, statement.params).affectedRows == 1
    }

    /// The statement of ``finish(key:owner:outcome:now:on:)``: it updates one row when `owner` still holds `key`,
    /// or already answered it with this outcome at `now` (so it is repeatable: a second run after the first
    /// committed writes the same and answers the same).
    static func finishing(key: String, owner: String, outcome: IdempotentOutcome, now: Date) throws -> PGStatement {
        var status: Int?
        var kind: String?
        var resourceId: String?
        var parent: String?
        var code: String?
        var message: String?
        var details: String?
        switch outcome {
        case .resource(let resource):
            (kind, resourceId, parent) = (resource.kind.rawValue, resource.id, resource.parent)
            status = resource.created ? 201 : 200
        case .failure(let error):
            (code, message) = (error.code.rawValue, error.message)
            let pointers = ErrorPointers(
                param: error.param, declineCode: error.declineCode, providerCode: error.providerCode)
            details = pointers.isEmpty ? nil : try StoreJSON.encode(pointers)
        }
        return PGStatement(
            """
            UPDATE idempotency_keys SET response_status = $3::integer, resource_kind = $4,
                resource_id = COALESCE($5, resource_id), resource_parent = $6, error_code = $7, error_message = $8,
                response_body = NULL, completed_at = $9::timestamptz, locked_until = NULL,
                error_details = $10::jsonb
            WHERE key = $1 AND owner = $2 AND (completed_at IS NULL OR completed_at = $9::timestamptz)
            """,
            [
                .text(key), .text(owner), status.map { .int(Int64($0)) } ?? .null, kind.pg, resourceId.pg, parent.pg,
                code.pg, message.pg, .timestamp(now), details.pg,
            ]
        )
    }

    /// Gives up `owner`'s claim on `key` after a failure with no answer to store: a key under which nothing
    /// was created is forgotten; one under which something was created has its lease ended, so the next
    /// retry resumes at once.
    public func releaseIdempotent(tenant: UUID, key: String, owner: String) async throws {
        let now = clock()
        try await tenantScoped(tenant) { c in
            let deleted = try await c.query(
                """
                DELETE FROM idempotency_keys
                WHERE key = $1 AND owner = $2 AND completed_at IS NULL AND resource_id IS NULL
                """,
                [.text(key), .text(owner)])
            if deleted.affectedRows == 0 {
                try await c.query(
                    """
                    UPDATE idempotency_keys SET locked_until = $3::timestamptz
                    WHERE key = $1 AND owner = $2 AND completed_at IS NULL
                    """,
                    [.text(key), .text(owner), .timestamp(now.addingTimeInterval(-0.001))])
            }
        }
    }
}
