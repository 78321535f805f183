// The routing tables' later migrations: guarded rollouts, the recorded answers and what replay reads of them.

extension Schema {
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
        \(tenantIsolation("routing_rollouts"))
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

extension Schema {
    /// The definite answer of each attempt that got one (approved or declined), recorded once per attempt in
    /// the attempt's own transaction: what the authorisation statistics count. One row per attempt keeps the
    /// "last N answers" window exact; the janitor deletes rows older than the longest window.
    static var routingOutcomes: String {
        """
        CREATE TABLE routing_outcomes (
            attempt_id text PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            account_id uuid NOT NULL,
            method text NOT NULL,
            currency text NOT NULL,
            country text NOT NULL,
            approved boolean NOT NULL,
            decided_at timestamptz NOT NULL
        );
        CREATE INDEX routing_outcomes_window
            ON routing_outcomes (tenant_id, account_id, method, currency, decided_at DESC);
        CREATE INDEX routing_outcomes_age ON routing_outcomes (decided_at);
        ALTER TABLE provider_accounts ADD COLUMN fees jsonb NOT NULL DEFAULT '{}'::jsonb;
        \(tenantIsolation("routing_outcomes"))
        """
    }
}

extension Schema {
    /// What replaying a draft routing over past traffic needs of each definite answer: the payment and its
    /// amount, whether the attempt was the payment's first (the one replay scores), the probability with
    /// which the live routing chose the attempt's account (first attempts routed by a rule only) and the
    /// account's fee for the payment. Rows written before have none of it and are not replayed.
    static var routingReplay: String {
        """
        ALTER TABLE routing_outcomes ADD COLUMN payment_id text;
        ALTER TABLE routing_outcomes ADD COLUMN amount bigint;
        ALTER TABLE routing_outcomes ADD COLUMN first_attempt boolean;
        ALTER TABLE routing_outcomes ADD COLUMN propensity double precision
            CHECK (propensity IS NULL OR (propensity > 0 AND propensity <= 1));
        ALTER TABLE routing_outcomes ADD COLUMN fee bigint;
        CREATE INDEX routing_outcomes_replay ON routing_outcomes (tenant_id, decided_at DESC, attempt_id DESC)
            WHERE propensity IS NOT NULL;
        """
    }
}
