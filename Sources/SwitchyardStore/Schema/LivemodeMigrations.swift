import SwitchyardCore

/// The SQL of the test and live mode migrations, which ``Schema/migrations`` lists in order.
enum LivemodeMigrations {
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
