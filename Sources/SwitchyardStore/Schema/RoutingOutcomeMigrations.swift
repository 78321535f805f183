/// The SQL of the routing outcome migrations, which ``Schema/migrations`` lists in order.
enum RoutingOutcomeMigrations {
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
        \(Schema.tenantIsolation("routing_outcomes"))
        """
    }
}
