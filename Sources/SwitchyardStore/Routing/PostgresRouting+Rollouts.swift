import Foundation
import SwitchyardCore

/// Guarded rollouts: a draft routing version next to the live one, decided by the janitor from the answers
/// recorded in `routing_outcomes` for the rollout's own payments, one replica per rollout
/// (`FOR UPDATE SKIP LOCKED`).
extension PostgresRouting {
    public func startRollout(
        tenant: UUID, id: UUID, rules: [RoutingRule], settings: RolloutSettings, actor: String, expectedVersion: Int?
    ) async throws -> RoutingRollout {
        let now = clock()
        defer { configurationChanges.changed(tenant: tenant) }
        return try await tenantScoped(tenant) { c in
            try await Self.lockRouting(c, tenant: tenant, expectedVersion: expectedVersion)
            let version = try await Self.writeRoutingVersion(
                c, tenant: tenant, rules: rules, actor: actor, draft: true, at: now)
            try await c.query(
                """
                INSERT INTO routing_rollouts (id, tenant_id, draft_version, share, guardrail, min_samples,
                    max_duration_seconds, alpha, status, actor, started_at)
                VALUES ($1::uuid, $2::uuid, $3::integer, $4::double precision, $5::double precision, $6::integer,
                    $7::bigint, $8::double precision, 'running', $9, $10::timestamptz)
                """,
                [
                    .uuid(id), .uuid(tenant), .int(Int64(version)), .double(settings.share),
                    .double(settings.guardrail), .int(Int64(settings.minSamples)),
                    .int(Int64(settings.maxDuration)), .double(settings.alpha), .text(actor), .timestamp(now),
                ])
            try await PostgresTenants.audit(
                c, tenant: tenant, actor: actor, action: "routing.rollout.start", target: id.uuidString.lowercased(),
                details: [
                    "draft_version": String(version), "share": String(settings.share),
                    "guardrail": String(settings.guardrail), "min_samples": String(settings.minSamples),
                    "max_duration_seconds": String(Int64(settings.maxDuration)),
                ], at: now)
            return RoutingRollout(
                id: id, settings: settings, draftVersion: version, draftRules: rules, startedAt: now, actor: actor)
        }
    }

    public func runningRollout(tenant: UUID) async throws -> (rollout: RoutingRollout, decision: RolloutDecision)? {
        let now = clock()
        return try await tenantScoped(tenant) { c in
            guard let rollout = try await Self.runningRollout(c, tenant: tenant) else { return nil }
            return (rollout, try await Self.decision(c, tenant: tenant, rollout: rollout, now: now))
        }
    }

    public func stopRollout(tenant: UUID, actor: String, at now: Date) async throws -> RolloutEnd {
        defer { configurationChanges.changed(tenant: tenant) }
        return try await tenantScoped(tenant) { c in
            guard let rollout = try await Self.runningRollout(c, tenant: tenant, lock: true) else {
                throw CoreError(.notFound, "no guarded rollout of the routing is running")
            }
            let decision = try await Self.decision(c, tenant: tenant, rollout: rollout, now: now)
            return try await self.end(
                c, tenant: tenant, rollout: rollout, decision: decision, status: .stopped, reason: "stopped",
                actor: actor, at: now)
        }
    }

    public func runningRollouts(after: UUID?, limit: Int) async throws -> [(tenant: UUID, rollout: UUID)] {
        try await system { c in
            try await c.query(
                """
                SELECT id, tenant_id FROM routing_rollouts
                WHERE status = 'running' AND ($2::uuid IS NULL OR id > $2::uuid)
                ORDER BY id LIMIT $1::bigint
                """, [.int(Int64(max(0, limit))), after.map(PGValue.uuid) ?? .null]
            ).rows.map { (tenant: try $0.uuid("tenant_id"), rollout: try $0.uuid("id")) }
        }
    }

    public func decideRollout(tenant: UUID, id: UUID, now: Date) async throws -> RolloutEnd? {
        let ended: RolloutEnd? = try await system { c in
            let busy = try await c.query(
                """
                SELECT 1 FROM routing_rollouts WHERE id = $1::uuid AND tenant_id = $2::uuid AND status = 'running'
                FOR UPDATE SKIP LOCKED
                """, [.uuid(id), .uuid(tenant)]
            ).rows.isEmpty
            guard !busy, let rollout = try await Self.runningRollout(c, tenant: tenant), rollout.id == id else {
                return nil
            }
            let decision = try await Self.decision(c, tenant: tenant, rollout: rollout, now: now)
            let (status, reason): (RolloutStatus, RolloutDecision.Reason)
            switch decision.action {
            case .continue: return nil
            case .promote(let why): (status, reason) = (.promoted, why)
            case .rollBack(let why): (status, reason) = (.rolledBack, why)
            }
            return try await self.end(
                c, tenant: tenant, rollout: rollout, decision: decision, status: status, reason: reason.rawValue,
                actor: "rollout", at: now)
        }
        if let ended { configurationChanges.changed(tenant: ended.tenant) }
        return ended
    }

    /// Ends `rollout` as `status`: a promotion writes the draft's rules as a new live version. The end is
    /// audited and announced (`routing.rollout.<status>`) with the figures that decided it.
    func end(
        _ c: PGConnection, tenant: UUID, rollout: RoutingRollout, decision: RolloutDecision, status: RolloutStatus,
        reason: String, actor: String, at now: Date
    ) async throws -> RolloutEnd {
        try await Self.queueRoutingWriters(c, tenant: tenant)
        var live = try await Self.liveRoutingVersion(c, tenant: tenant)
        if status == .promoted {
            live = try await Self.writeRoutingVersion(
                c, tenant: tenant, rules: rollout.draftRules, actor: actor, draft: false, at: now)
        }
        let ended = RolloutEnd(
            tenant: tenant, rollout: rollout, status: status, reason: reason, figures: decision.figures,
            liveVersion: live)
        try await c.query(
            """
            UPDATE routing_rollouts SET status = $2, reason = $3, figures = $4::jsonb, ended_at = $5::timestamptz
            WHERE id = $1::uuid
            """,
            [
                .uuid(rollout.id), .text(status.rawValue), .text(reason), .json(try StoreJSON.encode(decision.figures)),
                .timestamp(now),
            ])
        let figures = decision.figures
        try await PostgresTenants.audit(
            c, tenant: tenant, actor: actor, action: "routing.rollout.\(status.rawValue)",
            target: rollout.id.uuidString.lowercased(),
            details: [
                "reason": reason, "live_version": String(live), "draft_version": String(rollout.draftVersion),
                "control_samples": String(figures.control.samples), "draft_samples": String(figures.draft.samples),
                "control_rate": figures.controlRate.map { String($0) } ?? "-",
                "draft_rate": figures.draftRate.map { String($0) } ?? "-",
                "interval": figures.interval.map { "[\($0.lower), \($0.upper)]" } ?? "-",
                "guardrail": String(figures.guardrail),
            ], at: now)
        // A routing governs the payments of both modes: the end is announced to the endpoints of each.
        for livemode in [false, true] {
            var announced = ended
            announced.livemode = livemode
            if let event = try WebhookEvent.statusChanged(
                from: RolloutStatus.running.rawValue, to: announced, id: PostgresOutbox.eventIds.make("evt"), at: now)
            {
                try await PostgresOutbox.enqueue(event, on: c)
            }
        }
        return ended
    }

    /// The tenant's running rollout with its draft's rules, optionally locking its row.
    static func runningRollout(_ c: PGConnection, tenant: UUID, lock: Bool = false) async throws -> RoutingRollout? {
        guard
            let row = try await c.query(
                """
                SELECT r.*, v.rules FROM routing_rollouts r
                JOIN routing_versions v ON v.tenant_id = r.tenant_id AND v.version = r.draft_version
                WHERE r.tenant_id = $1::uuid AND r.status = 'running'\(lock ? " FOR UPDATE OF r" : "")
                """, [.uuid(tenant)]
            ).first
        else { return nil }
        return try rollout(row)
    }

    /// The rollout of a `routing_rollouts` row joined with its draft version's `rules`.
    static func rollout(_ row: PGRow) throws -> RoutingRollout {
        RoutingRollout(
            id: try row.uuid("id"),
            settings: RolloutSettings(
                share: try row.double("share"), guardrail: try row.double("guardrail"),
                minSamples: Int(try row.int64("min_samples")),
                maxDuration: TimeInterval(try row.int64("max_duration_seconds")), alpha: try row.double("alpha")),
            draftVersion: Int(try row.int64("draft_version")),
            draftRules: try StoreJSON.decode([RoutingRule].self, try row.string("rules")),
            startedAt: try row.date("started_at"), actor: try row.string("actor"))
    }

    /// The decision of `rollout` as of `now`, from the answers of the payments routed under it (served by
    /// `routing_outcomes_rollout`): a payment of an earlier rollout answered during this one does not count.
    static func decision(_ c: PGConnection, tenant: UUID, rollout: RoutingRollout, now: Date) async throws
        -> RolloutDecision
    {
        var decision = RolloutDecision(settings: rollout.settings, startedAt: rollout.startedAt, now: now)
        let rows = try await c.query(
            """
            SELECT arm, count(*) AS samples, count(*) FILTER (WHERE approved) AS approved FROM routing_outcomes
            WHERE tenant_id = $1::uuid AND rollout_id = $2::uuid AND arm IS NOT NULL GROUP BY arm
            """, [.uuid(tenant), .uuid(rollout.id)]
        ).rows
        for row in rows {
            let tally = RolloutDecision.Tally(
                samples: Int(try row.int64("samples")), approved: Int(try row.int64("approved")))
            switch RolloutArm(rawValue: try row.string("arm")) {
            case .control: decision.control = tally
            case .draft: decision.draft = tally
            case nil: continue
            }
        }
        return decision
    }
}
