/// The versioned schema. Append new migrations; never edit an applied one.
public enum Schema {
    /// The role tenant-scoped transactions switch to; row-level security applies to it.
    public static let tenantRole = "switchyard_tenant"
    /// The role whose members have the system's cross-tenant rights (see ``leastPrivilege``).
    public static let systemRole = "switchyard_system"
    /// The setting that carries the current tenant inside a tenant-scoped transaction.
    public static let tenantSetting = "switchyard.tenant_id"

    /// Tables whose rows belong to one tenant; each gets a row-level-security policy.
    static let tenantTables = [
        "api_keys", "provider_accounts", "routing_rules", "payments", "attempts", "refunds", "payment_operations",
        "idempotency_keys", "notifications",
    ]

    /// All migrations, in order.
    public static let migrations: [Migration] = [
        Migration(version: 1, name: "core tables", sql: coreTables),
        Migration(version: 2, name: "row level security", sql: rowLevelSecurity),
        Migration(
            version: 3, name: "operation replay data",
            sql: "ALTER TABLE payment_operations ADD COLUMN replay text;"),
        Migration(version: 4, name: "stored credentials", sql: storedCredentials),
        Migration(version: 5, name: "routing versions, tenant policy, outcome resolution", sql: orchestration),
        Migration(version: 6, name: "webhook outbox", sql: WebhookMigrations.webhooks),
        Migration(
            version: 7, name: "client session sweeps",
            sql: """
                ALTER TABLE payments ADD COLUMN session_swept_at timestamptz;
                CREATE INDEX payments_waiting ON payments (updated_at) WHERE status = 'requires_action';
                CREATE INDEX stored_credentials_pending ON stored_credentials (created_at) WHERE status = 'pending';
                """),
        Migration(
            version: 8, name: "notification intake limits and application marks",
            sql: NotificationIntakeMigrations.notificationIntake),
        Migration(version: 9, name: "least privilege", sql: LeastPrivilegeMigrations.leastPrivilege),
        // Which deliveries are leased to a worker (so each endpoint gets a bounded number at once), and which
        // are replays (so each tenant's replays can be counted).
        Migration(
            version: 10, name: "webhook leases and replay quota",
            sql: """
                ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz;
                ALTER TABLE webhook_deliveries ADD COLUMN replay boolean NOT NULL DEFAULT false;
                -- Row-level security is forced on the owner too (migration 9): lift it for this backfill only.
                ALTER TABLE webhook_deliveries NO FORCE ROW LEVEL SECURITY;
                UPDATE webhook_deliveries SET replay = true WHERE replay_of IS NOT NULL;
                ALTER TABLE webhook_deliveries FORCE ROW LEVEL SECURITY;
                CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at)
                    WHERE status = 'pending';
                CREATE INDEX webhook_deliveries_replays ON webhook_deliveries (tenant_id, created_at) WHERE replay;
                CREATE INDEX webhook_deliveries_leased_endpoint ON webhook_deliveries (endpoint_id)
                    WHERE leased_until IS NOT NULL;
                CREATE INDEX webhook_deliveries_leased_tenant ON webhook_deliveries (tenant_id)
                    WHERE leased_until IS NOT NULL;
                """),
        Migration(
            version: 11, name: "provider token lock leases",
            sql: """
                CREATE TABLE provider_token_locks (
                    account_id uuid NOT NULL,
                    kind text NOT NULL,
                    holder text NOT NULL,
                    expires_at timestamptz NOT NULL,
                    PRIMARY KEY (account_id, kind)
                );
                """),
        // A key in progress names the request that owns it and until when; a retry may take it over after
        // that, and finds what the first request created through `resource_id`.
        Migration(
            version: 12, name: "idempotency leases",
            sql: """
                ALTER TABLE idempotency_keys ADD COLUMN owner text;
                ALTER TABLE idempotency_keys ADD COLUMN locked_until timestamptz;
                ALTER TABLE idempotency_keys ADD COLUMN resource_id text;
                """),
        Migration(version: 13, name: "settlement of every open state", sql: SettlementMigrations.settlement),
        Migration(
            version: 14, name: "configuration change notifications",
            sql: ConfigurationNotificationMigrations.configurationNotifications),
        Migration(
            version: 15, name: "routing outcomes and account fees", sql: RoutingOutcomeMigrations.routingOutcomes),
        // A key stores what its first request answered as a domain outcome, rendered again on every replay: the
        // resource (kind, `resource_id`, the parent that finds it, and `response_status` 201 or 200) or the
        // error (code, message, status). A key is answered once `completed_at` is set. Keys answered earlier
        // keep their `response_status` and `response_body` and replay them as before.
        Migration(
            version: 16, name: "idempotency outcomes",
            sql: """
                ALTER TABLE idempotency_keys ADD COLUMN resource_kind text;
                ALTER TABLE idempotency_keys ADD COLUMN resource_parent text;
                ALTER TABLE idempotency_keys ADD COLUMN error_code text;
                ALTER TABLE idempotency_keys ADD COLUMN error_message text;
                """),
        Migration(version: 17, name: "retention of finished data", sql: RetentionMigrations.retention),
        Migration(version: 18, name: "server instances, keys in progress", sql: InstanceMigrations.instances),
        Migration(version: 19, name: "metadata and descriptions", sql: MetadataMigrations.metadata),
        Migration(version: 20, name: "webhook secret rotation", sql: SecretRotationMigrations.secretRotation),
        Migration(version: 21, name: "tenant API versions", sql: APIVersionMigrations.apiVersions),
        Migration(version: 22, name: "test and live mode", sql: LivemodeMigrations.livemode),
        Migration(version: 23, name: "routing propensities for replay", sql: RoutingReplayMigrations.routingReplay),
        Migration(
            version: 24, name: "guarded routing rollouts, rule strategy columns", sql: RolloutMigrations.rollouts),
        // What points at a stored error's cause (`param`, `decline_code`, `provider_code`), replayed with it.
        Migration(
            version: 25, name: "idempotency error pointers",
            sql: "ALTER TABLE idempotency_keys ADD COLUMN error_details jsonb;"),
        Migration(version: 26, name: "the rollout of each routing outcome", sql: RolloutMigrations.rolloutOutcomes),
        Migration(version: 28, name: "disputes and the payments' disputed amount", sql: DisputeMigrations.disputes),
        Migration(
            version: 29, name: "notification delays and overdue inquiries", sql: OverdueNotificationMigrations.overdue),
        Migration(version: 30, name: "the ledger of disputes' funds movements", sql: DisputeMigrations.ledger),
        Migration(version: 31, name: "named operators, the audit log naming them", sql: OperatorMigrations.operators),
        Migration(version: 32, name: "review items resolved with a note", sql: OperatorMigrations.reviewResolution),
    ]

    static let coreTables = """
        CREATE TABLE tenants (
            id uuid PRIMARY KEY,
            name text NOT NULL,
            created_at timestamptz NOT NULL
        );
        CREATE TABLE api_keys (
            id uuid PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            prefix text NOT NULL,
            key_hash text NOT NULL UNIQUE,
            name text NOT NULL,
            scopes text[] NOT NULL,
            created_at timestamptz NOT NULL,
            revoked_at timestamptz,
            expires_at timestamptz,
            last_used_at timestamptz
        );
        CREATE INDEX api_keys_tenant ON api_keys (tenant_id);
        CREATE TABLE provider_accounts (
            id uuid PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            name text NOT NULL,
            plugin_id text NOT NULL,
            environment text NOT NULL,
            base_url text NOT NULL,
            credentials jsonb NOT NULL,
            secret_credentials jsonb NOT NULL,
            options jsonb NOT NULL,
            enabled boolean NOT NULL,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL
        );
        CREATE INDEX provider_accounts_tenant ON provider_accounts (tenant_id);
        CREATE TABLE routing_rules (
            id uuid PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            position integer NOT NULL,
            name text NOT NULL,
            match jsonb NOT NULL,
            accounts jsonb NOT NULL,
            created_at timestamptz NOT NULL
        );
        CREATE INDEX routing_rules_tenant ON routing_rules (tenant_id, position);
        CREATE TABLE payments (
            id text PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            amount bigint NOT NULL CHECK (amount > 0),
            currency text NOT NULL,
            country text NOT NULL,
            method text NOT NULL,
            reference text NOT NULL,
            capture_mode text NOT NULL,
            customer_id text,
            return_url text,
            payment_data jsonb NOT NULL,
            status text NOT NULL,
            amount_captured bigint NOT NULL DEFAULT 0 CHECK (amount_captured >= 0 AND amount_captured <= amount),
            amount_refunded bigint NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= amount_captured),
            next_action jsonb,
            provider_account_id uuid,
            failure_code text,
            failure_message text,
            routing jsonb,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL
        );
        CREATE INDEX payments_tenant_reference ON payments (tenant_id, reference);
        CREATE INDEX payments_tenant_created ON payments (tenant_id, created_at DESC, id DESC);
        CREATE INDEX payments_open ON payments (provider_account_id, status)
            WHERE status IN ('processing', 'requires_action', 'unknown');
        CREATE TABLE attempts (
            id text PRIMARY KEY,
            payment_id text NOT NULL REFERENCES payments(id),
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            account_id uuid NOT NULL,
            plugin_id text NOT NULL,
            sequence integer NOT NULL,
            outcome text,
            provider_payment_id text,
            provider_status text,
            code text,
            message text,
            reason text NOT NULL,
            started_at timestamptz NOT NULL,
            finished_at timestamptz,
            UNIQUE (payment_id, sequence)
        );
        CREATE INDEX attempts_provider_id ON attempts (account_id, provider_payment_id);
        CREATE TABLE refunds (
            id text PRIMARY KEY,
            payment_id text NOT NULL REFERENCES payments(id),
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            amount bigint NOT NULL CHECK (amount > 0),
            currency text NOT NULL,
            reason text,
            status text NOT NULL,
            provider_refund_id text,
            failure_code text,
            failure_message text,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL
        );
        CREATE INDEX refunds_payment ON refunds (payment_id);
        CREATE TABLE payment_operations (
            id text PRIMARY KEY,
            payment_id text NOT NULL REFERENCES payments(id),
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            kind text NOT NULL,
            amount bigint,
            outcome text,
            provider_id text,
            code text,
            message text,
            created_at timestamptz NOT NULL
        );
        CREATE INDEX payment_operations_payment ON payment_operations (payment_id);
        CREATE TABLE idempotency_keys (
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            key text NOT NULL,
            request_hash text NOT NULL,
            response_status integer,
            response_body bytea,
            created_at timestamptz NOT NULL,
            completed_at timestamptz,
            PRIMARY KEY (tenant_id, key)
        );
        CREATE TABLE provider_tokens (
            account_id uuid NOT NULL,
            kind text NOT NULL,
            token_encrypted text NOT NULL,
            expires_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            PRIMARY KEY (account_id, kind)
        );
        CREATE TABLE notifications (
            id bigserial PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            account_id uuid NOT NULL,
            body_hash text NOT NULL,
            headers jsonb NOT NULL,
            body bytea NOT NULL,
            verified boolean NOT NULL,
            failure_reason text,
            received_at timestamptz NOT NULL
        );
        CREATE UNIQUE INDEX notifications_verified_once ON notifications (account_id, body_hash) WHERE verified;
        CREATE TABLE audit_log (
            id bigserial PRIMARY KEY,
            tenant_id uuid,
            actor text NOT NULL,
            action text NOT NULL,
            target text NOT NULL,
            details jsonb NOT NULL,
            at timestamptz NOT NULL
        );
        CREATE INDEX audit_log_tenant ON audit_log (tenant_id, id);
        """

    /// Creates a role unless it exists. Roles are shared by every database of a cluster and advisory locks
    /// are not, so two databases migrating at once may both try: losing that race is not an error.
    static func createRole(_ name: String) -> String {
        """
        DO $$ BEGIN
            IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(name)') THEN
                CREATE ROLE \(name) NOLOGIN;
            END IF;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
        END $$;
        """
    }

    static var rowLevelSecurity: String {
        var sql = """
            \(createRole(tenantRole))
            DO $$ BEGIN
                EXECUTE format('GRANT \(tenantRole) TO %I', current_user);
            EXCEPTION WHEN OTHERS THEN NULL;
            END $$;
            GRANT USAGE ON SCHEMA public TO \(tenantRole);
            GRANT SELECT ON tenants TO \(tenantRole);
            GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO \(tenantRole);
            GRANT INSERT ON audit_log TO \(tenantRole);

            """
        for table in tenantTables {
            sql += tenantIsolation(table)
        }
        return sql
    }

    /// Grants the tenant role access to a tenant-owned table and confines it to the current tenant's rows.
    ///
    /// Once ``systemRole`` exists (migration 9, ``leastPrivilege``), the table is also forced under
    /// row-level security and gets the system's policy, so tables added by later migrations are treated
    /// like the earlier ones.
    static func tenantIsolation(_ table: String) -> String {
        """
        GRANT SELECT, INSERT, UPDATE, DELETE ON \(table) TO \(tenantRole);
        ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY;
        CREATE POLICY tenant_isolation ON \(table)
            USING (tenant_id = NULLIF(current_setting('\(tenantSetting)', true), '')::uuid)
            WITH CHECK (tenant_id = NULLIF(current_setting('\(tenantSetting)', true), '')::uuid);
        \(LeastPrivilegeMigrations.systemAccess(table))

        """
    }

    /// Customers' stored payment credentials (provider tokens, sealed) and the vaulting sessions that make them.
    static var storedCredentials: String {
        """
        CREATE TABLE stored_credentials (
            id text PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            customer_id text NOT NULL,
            account_id uuid NOT NULL REFERENCES provider_accounts(id),
            plugin_id text NOT NULL,
            kind text NOT NULL,
            status text NOT NULL,
            correlation_id text NOT NULL,
            token text,
            token_digest text,
            payment_method_type text,
            display jsonb,
            session jsonb,
            origin_payment_id text,
            failure_code text,
            failure_message text,
            expires_at timestamptz,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            UNIQUE (account_id, correlation_id)
        );
        CREATE INDEX stored_credentials_customer ON stored_credentials (tenant_id, customer_id);
        CREATE INDEX stored_credentials_token ON stored_credentials (account_id, token_digest);
        ALTER TABLE payments ADD COLUMN payment_method_id text, ADD COLUMN saved_payment_method_id text;

        """ + tenantIsolation("stored_credentials")
    }

    /// Weighted and versioned routing, tenants' own limits, and the janitor's bookkeeping on payments.
    static var orchestration: String {
        """
        ALTER TABLE routing_rules ADD COLUMN weights jsonb;
        CREATE TABLE routing_versions (
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            version integer NOT NULL,
            rules jsonb NOT NULL,
            actor text NOT NULL,
            created_at timestamptz NOT NULL,
            PRIMARY KEY (tenant_id, version)
        );
        \(tenantIsolation("routing_versions"))
        ALTER TABLE tenants ADD COLUMN policy jsonb NOT NULL DEFAULT '{}'::jsonb;
        ALTER TABLE payments ADD COLUMN unknown_since timestamptz;
        ALTER TABLE payments ADD COLUMN sync_count integer NOT NULL DEFAULT 0;
        ALTER TABLE payments ADD COLUMN next_sync_at timestamptz;
        ALTER TABLE payments ADD COLUMN review_required boolean NOT NULL DEFAULT false;
        CREATE INDEX payments_unresolved ON payments (next_sync_at) WHERE status = 'unknown';
        CREATE INDEX payments_review ON payments (tenant_id) WHERE review_required;
        """
    }
}
