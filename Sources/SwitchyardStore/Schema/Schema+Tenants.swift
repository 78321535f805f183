import SwitchyardCore

// What later migrations added to a tenant's objects: API versions, test and live mode, metadata, rotated webhook
// secrets.

extension Schema {
    /// The merchant API version each tenant is pinned to (``SwitchyardCore/APIVersion``): set when the
    /// tenant's first API key is created; NULL for tenants that had keys before versions existed, which
    /// behave as the oldest version.
    static var apiVersions: String {
        """
        ALTER TABLE tenants ADD COLUMN api_version text;
        """
    }
}

extension Schema {
    /// Migration 22: test and live mode (``Livemode``). Keys, payments, refunds, stored payment methods, webhook
    /// events and webhook endpoints get `livemode`. Existing keys and endpoints are test; existing payments and
    /// stored payment methods take the mode of their account's environment (test when it has none), refunds
    /// their payment's and events their object's. The existing tables' row-level security covers the columns.
    static var livemode: String {
        let touched = ["provider_accounts", "payments", "refunds", "stored_credentials", "webhook_events"]
        let live = Livemode.liveEnvironments.sorted().map { "'\($0)'" }.joined(separator: ", ")
        return """
            ALTER TABLE api_keys ADD COLUMN livemode boolean NOT NULL DEFAULT false;
            ALTER TABLE payments ADD COLUMN livemode boolean NOT NULL DEFAULT false;
            ALTER TABLE refunds ADD COLUMN livemode boolean NOT NULL DEFAULT false;
            ALTER TABLE stored_credentials ADD COLUMN livemode boolean NOT NULL DEFAULT false;
            ALTER TABLE webhook_events ADD COLUMN livemode boolean NOT NULL DEFAULT false;
            ALTER TABLE webhook_endpoints ADD COLUMN livemode boolean NOT NULL DEFAULT false;
            -- Row-level security is forced on the owner too (migration 9): lift it for this backfill only.
            \(touched.map { "ALTER TABLE \($0) NO FORCE ROW LEVEL SECURITY;" }.joined(separator: "\n"))
            UPDATE payments p SET livemode = true FROM provider_accounts a
                WHERE a.id = p.provider_account_id AND a.environment IN (\(live));
            UPDATE refunds r SET livemode = true FROM payments p WHERE p.id = r.payment_id AND p.livemode;
            UPDATE stored_credentials s SET livemode = true FROM provider_accounts a
                WHERE a.id = s.account_id AND a.environment IN (\(live));
            UPDATE webhook_events e SET livemode = true
                WHERE EXISTS (SELECT 1 FROM payments p WHERE p.id = e.object_id AND p.livemode)
                    OR EXISTS (SELECT 1 FROM refunds r WHERE r.id = e.object_id AND r.livemode)
                    OR EXISTS (SELECT 1 FROM stored_credentials s WHERE s.id = e.object_id AND s.livemode);
            \(touched.map { "ALTER TABLE \($0) FORCE ROW LEVEL SECURITY;" }.joined(separator: "\n"))
            CREATE INDEX payments_tenant_mode_created ON payments (tenant_id, livemode, created_at DESC, id DESC);
            """
    }
}

extension Schema {
    /// The merchant's `metadata` (a jsonb object of strings, `{}` when none) and `description` on payments,
    /// refunds and stored payment methods, and `metadata` on webhook endpoints (which have a description). Both are written once, with the row, and never updated. The existing tables' row-level
    /// security covers the new columns.
    ///
    /// `payments_metadata` is a `jsonb_path_ops` GIN index, which answers the containment (`@>`) the payment
    /// list's `metadata[key]=value` filters are read as; the tenant is the row-level security's condition.
    static var metadata: String {
        """
        ALTER TABLE payments ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb;
        ALTER TABLE payments ADD COLUMN description text;
        ALTER TABLE refunds ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb;
        ALTER TABLE refunds ADD COLUMN description text;
        ALTER TABLE stored_credentials ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb;
        ALTER TABLE stored_credentials ADD COLUMN description text;
        ALTER TABLE webhook_endpoints ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb;
        CREATE INDEX payments_metadata ON payments USING gin (metadata jsonb_path_ops);
        """
    }
}

extension Schema {
    /// Webhook secret rotation: the replaced secret, sealed like the current one (``SealContext/webhook(_:)``),
    /// and until when it still signs deliveries.
    static var secretRotation: String {
        """
        ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_encrypted text;
        ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at timestamptz;
        """
    }
}
