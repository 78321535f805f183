import Foundation
import SwitchyardCore

/// Tenants' routing: its rules and their versions, guarded rollouts, the outcomes and statistics adaptive
/// routing decides on, and the logged decisions a replay reads, over the shared ``PostgresDatabase``.
public struct PostgresRouting: RoutingRepository, RolloutRepository, RoutingStatsRepository, RoutingReplayRepository,
    RoutingOutcomeRetention, PostgresRepository
{
    let database: PostgresDatabase
}

/// The rules and their versions.
extension PostgresRouting {
    static let routingVersionPages = PageQuery(
        table: "routing_versions", idColumn: "version", idType: "bigint", statusColumn: nil)

    public func routingRules(tenant: UUID) async throws -> [RoutingRule] {
        try await routingConfiguration(tenant: tenant).rules
    }

    /// A tenant's routing rules with the version they were written as (0 before any write), and the
    /// guarded rollout running next to them.
    public func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration {
        // One snapshot: a rollout ending between the reads would otherwise show its old version beside
        // its new rules and no rollout.
        try await tenantSnapshot(tenant) { c in
            await RoutingConfiguration(
                version: try Self.liveRoutingVersion(c, tenant: tenant),
                rules: try Self.liveRoutingRules(c, tenant: tenant),
                rollout: try Self.runningRollout(c, tenant: tenant))
        }
    }

    /// The tenant's live rules, from `routing_rules`.
    static func liveRoutingRules(_ c: PGConnection, tenant: UUID) async throws -> [RoutingRule] {
        try await c.query("SELECT * FROM routing_rules WHERE tenant_id = $1::uuid ORDER BY position", [.uuid(tenant)])
            .rows
            .map { row in
                let weights = try row.optionalString("weights").map { try StoreJSON.decode([Int].self, $0) }
                return RoutingRule(
                    id: try row.uuid("id"), name: try row.string("name"),
                    match: try StoreJSON.decode(RoutingRule.Match.self, try row.string("match")),
                    accounts: try StoreJSON.decode([UUID].self, try row.string("accounts")), weights: weights,
                    strategy: row.optionalString("strategy").flatMap(RoutingStrategy.init(rawValue:)),
                    maxRateLoss: row.optionalString("max_rate_loss").flatMap(Double.init))
            }
    }

    /// The live version: the newest that is not a rollout's draft (0 before any write).
    static func liveRoutingVersion(_ c: PGConnection, tenant: UUID) async throws -> Int {
        let version = try await c.query(
            "SELECT max(version) AS v FROM routing_versions WHERE tenant_id = $1::uuid AND NOT draft", [.uuid(tenant)]
        ).first?.optionalString("v")
        return version.flatMap { Int($0) } ?? 0
    }

    /// Replaces a tenant's routing rules as a whole and records them as a new version; refused with
    /// `routing_version_conflict` when `expectedVersion` is given and is not the current one, and with
    /// `rollout_running` while a guarded rollout runs.
    @discardableResult
    public func replaceRoutingRules(tenant: UUID, rules: [RoutingRule], actor: String, expectedVersion: Int? = nil)
        async throws -> RoutingConfiguration
    {
        let now = clock()
        defer { configurationChanges.changed(tenant: tenant) }
        return try await tenantScoped(tenant) { c in
            try await Self.lockRouting(c, tenant: tenant, expectedVersion: expectedVersion)
            let version = try await Self.writeRoutingVersion(
                c, tenant: tenant, rules: rules, actor: actor, draft: false, at: now)
            return RoutingConfiguration(version: version, rules: rules)
        }
    }

    /// Queues the tenant's routing writers (so versions are consecutive) and refuses a write based on a
    /// stale `expectedVersion` (`routing_version_conflict`) or made while a guarded rollout runs
    /// (`rollout_running`).
    static func lockRouting(_ c: PGConnection, tenant: UUID, expectedVersion: Int?) async throws {
        try await queueRoutingWriters(c, tenant: tenant)
        let current = try await liveRoutingVersion(c, tenant: tenant)
        if let expectedVersion, expectedVersion != current {
            throw CoreError(
                .routingVersionConflict,
                "the routing is at version \(current), not \(expectedVersion); read it again and retry")
        }
        if try await runningRollout(c, tenant: tenant) != nil {
            throw CoreError(
                .rolloutRunning, "a guarded rollout of the routing is running; stop it (or let it end) first")
        }
    }

    /// Waits for the tenant's other routing writers to commit, so versions are consecutive.
    static func queueRoutingWriters(_ c: PGConnection, tenant: UUID) async throws {
        try await c.query("SELECT pg_advisory_xact_lock(hashtext('routing:' || $1))", [.text(tenant.uuidString)])
    }

    /// Records `rules` as the tenant's next version, audited: a draft is only recorded; otherwise the rules
    /// become the live `routing_rules`. Returns the version.
    static func writeRoutingVersion(
        _ c: PGConnection, tenant: UUID, rules: [RoutingRule], actor: String, draft: Bool, at now: Date
    ) async throws -> Int {
        let latest = try await c.query(
            "SELECT max(version) AS v FROM routing_versions WHERE tenant_id = $1::uuid", [.uuid(tenant)]
        )
        .first?.optionalString("v")
        let version = (latest.flatMap { Int($0) } ?? 0) + 1
        if !draft {
            try await c.query("DELETE FROM routing_rules WHERE tenant_id = $1::uuid", [.uuid(tenant)])
            for (position, rule) in rules.enumerated() {
                try await c.query(
                    """
                    INSERT INTO routing_rules (id, tenant_id, position, name, match, accounts, weights, strategy,
                        max_rate_loss, created_at)
                    VALUES ($1::uuid, $2::uuid, $3::integer, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8,
                        $9::double precision, $10::timestamptz)
                    """,
                    [
                        .uuid(rule.id), .uuid(tenant), .int(Int64(position)), .text(rule.name),
                        .json(try StoreJSON.encode(rule.match)), .json(try StoreJSON.encode(rule.accounts)),
                        try rule.weights.map { PGValue.json(try StoreJSON.encode($0)) } ?? .null,
                        .text(rule.strategy.rawValue), rule.maxRateLoss.map { PGValue.double($0) } ?? .null,
                        .timestamp(now),
                    ])
            }
        }
        try await c.query(
            """
            INSERT INTO routing_versions (tenant_id, version, rules, actor, created_at, draft)
            VALUES ($1::uuid, $2::integer, $3::jsonb, $4, $5::timestamptz, $6::boolean)
            """,
            [
                .uuid(tenant), .int(Int64(version)), .json(try StoreJSON.encode(rules)), .text(actor), .timestamp(now),
                .bool(draft),
            ])
        try await PostgresTenants.audit(
            c, tenant: tenant, actor: actor, action: draft ? "routing.draft" : "routing.replace",
            target: tenant.uuidString, details: ["rules": String(rules.count), "version": String(version)], at: now)
        return version
    }

    /// The rows of `page` of a tenant's routing versions (row-level security keeps them to the tenant).
    public func routingHistory(tenant: UUID, page: PageRequest) async throws -> [RoutingVersion] {
        try await tenantScoped(tenant) { c in
            try await Self.routingVersionPages.rows(c, page).map { row in
                RoutingVersion(
                    version: Int(try row.int64("version")), actor: try row.string("actor"),
                    createdAt: try row.date("created_at"),
                    rules: try StoreJSON.decode([RoutingRule].self, try row.string("rules")))
            }
        }
    }
}
