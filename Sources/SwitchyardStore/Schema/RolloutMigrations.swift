/// The SQL of the guarded rollout migrations, which ``Schema/migrations`` lists in order.
enum RolloutMigrations {
    /// Migration 24: guarded rollouts of a routing change, and a rule's strategy and `max_rate_loss` as
    /// columns of `routing_rules`.
    ///
    /// - `routing_rules.strategy` and `max_rate_loss` were read from the latest version's `rules` snapshot;
    ///   they are copied from it, a rule without a stored strategy getting the implied one (`weighted` with
    ///   weights, else `ordered`).
    /// - `routing_versions.draft` marks a version stored as a rollout's draft: it is history, never the
    ///   live routing (the live version is the newest one that is not a draft).
    /// - `routing_rollouts`: one row per rollout; at most one `running` per tenant. The worker locks running
    ///   rows with `FOR UPDATE SKIP LOCKED`, so one replica decides each; a change notifies the replicas'
    ///   configuration caches like every routing write.
    /// - `routing_outcomes.arm`: the rollout arm (`control` or `draft`) of the payment an answer belongs to,
    ///   null outside a rollout.
    static var rollouts: String { ruleStrategyColumns + rolloutTables }

    /// Migration 24's first part: a rule's strategy and `max_rate_loss` as columns, filled from the latest
    /// version snapshot.
    static var ruleStrategyColumns: String {
        """
        ALTER TABLE routing_rules ADD COLUMN strategy text;
        ALTER TABLE routing_rules ADD COLUMN max_rate_loss double precision;
        UPDATE routing_rules r
        SET strategy = s.rule->>'strategy', max_rate_loss = (s.rule->>'maxRateLoss')::double precision
        FROM (
            SELECT v.tenant_id, jsonb_array_elements(v.rules) AS rule
            FROM routing_versions v
            WHERE v.version = (SELECT max(version) FROM routing_versions m WHERE m.tenant_id = v.tenant_id)
        ) s
        WHERE s.tenant_id = r.tenant_id AND (s.rule->>'id')::uuid = r.id;
        UPDATE routing_rules SET strategy = CASE WHEN weights IS NULL THEN 'ordered' ELSE 'weighted' END
        WHERE strategy IS NULL;
        ALTER TABLE routing_rules ALTER COLUMN strategy SET NOT NULL;

        """
    }

    /// Migration 24's second part: drafts, rollouts and the arm of each recorded answer.
    static var rolloutTables: String {
        """
        ALTER TABLE routing_versions ADD COLUMN draft boolean NOT NULL DEFAULT false;
        CREATE TABLE routing_rollouts (
            id uuid PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            draft_version integer NOT NULL,
            share double precision NOT NULL,
            guardrail double precision NOT NULL,
            min_samples integer NOT NULL,
            max_duration_seconds bigint NOT NULL,
            alpha double precision NOT NULL,
            status text NOT NULL,
            reason text,
            figures jsonb,
            actor text NOT NULL,
            started_at timestamptz NOT NULL,
            ended_at timestamptz,
            FOREIGN KEY (tenant_id, draft_version) REFERENCES routing_versions (tenant_id, version)
        );
        CREATE UNIQUE INDEX routing_rollouts_running ON routing_rollouts (tenant_id) WHERE status = 'running';
        CREATE INDEX routing_rollouts_due ON routing_rollouts (started_at) WHERE status = 'running';
        \(Schema.tenantIsolation("routing_rollouts"))
        CREATE TRIGGER routing_rollouts_config_notify AFTER INSERT OR UPDATE OR DELETE ON routing_rollouts
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        ALTER TABLE routing_outcomes ADD COLUMN arm text;
        """
    }

    /// Migration 26: `routing_outcomes.rollout_id`, the guarded rollout whose routing the payment went
    /// through, so a rollout counts the answers of its own payments only (a payment routed in an earlier
    /// rollout and answered during a later one counts for neither the later one nor, once it ended, the
    /// earlier one's figures). Answers recorded before it get the rollout that ran when their payment was
    /// created: one runs at a time per tenant, and a payment is routed when it is created.
    static var rolloutOutcomes: String {
        """
        ALTER TABLE routing_outcomes ADD COLUMN rollout_id uuid;
        UPDATE routing_outcomes o SET rollout_id = r.id
        FROM payments p, routing_rollouts r
        WHERE o.arm IS NOT NULL AND p.id = o.payment_id AND r.tenant_id = o.tenant_id
            AND p.created_at >= r.started_at AND (r.ended_at IS NULL OR p.created_at < r.ended_at);
        CREATE INDEX routing_outcomes_rollout ON routing_outcomes (rollout_id, decided_at)
            WHERE rollout_id IS NOT NULL;
        """
    }
}
