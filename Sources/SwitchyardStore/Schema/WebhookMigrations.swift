/// The SQL of the webhook outbox migrations, which ``Schema/migrations`` lists in order.
enum WebhookMigrations {
    /// Merchants' webhook endpoints, the outbox of events, one delivery per (event, endpoint) and every
    /// delivery attempt.
    static var webhooks: String {
        """
        CREATE TABLE webhook_endpoints (
            id text PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            url text NOT NULL,
            description text,
            event_types jsonb NOT NULL,
            secret_encrypted text NOT NULL,
            enabled boolean NOT NULL DEFAULT true,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL
        );
        CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (tenant_id) WHERE enabled;
        CREATE TABLE webhook_events (
            id text PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            type text NOT NULL,
            object_id text NOT NULL,
            payload text NOT NULL,
            created_at timestamptz NOT NULL
        );
        CREATE INDEX webhook_events_tenant ON webhook_events (tenant_id, created_at DESC, id DESC);
        CREATE INDEX webhook_events_object ON webhook_events (tenant_id, object_id);
        CREATE TABLE webhook_deliveries (
            id text PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            event_id text NOT NULL REFERENCES webhook_events(id),
            endpoint_id text NOT NULL REFERENCES webhook_endpoints(id),
            status text NOT NULL,
            attempt_count integer NOT NULL DEFAULT 0,
            next_attempt_at timestamptz,
            last_status_code integer,
            last_error text,
            replay_of text,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            delivered_at timestamptz
        );
        CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
        CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
        CREATE INDEX webhook_deliveries_tenant ON webhook_deliveries (tenant_id, status, created_at DESC);
        CREATE TABLE webhook_attempts (
            id bigserial PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            delivery_id text NOT NULL REFERENCES webhook_deliveries(id),
            number integer NOT NULL,
            started_at timestamptz NOT NULL,
            status_code integer,
            latency_ms integer NOT NULL,
            error text,
            worker text NOT NULL
        );
        CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, number);
        GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO \(Schema.tenantRole);
        \(Schema.tenantIsolation("webhook_endpoints"))
        \(Schema.tenantIsolation("webhook_events"))
        \(Schema.tenantIsolation("webhook_deliveries"))
        \(Schema.tenantIsolation("webhook_attempts"))
        """
    }
}
