// What the platform's workers keep: configuration change notifications, server instances, retention indexes, the
// janitor's settlement bookkeeping.

extension Schema {
    /// Every write to a tenant's configuration (its policy, API keys, provider accounts, routing) notifies
    /// channel `switchyard_config` with the tenant's id when it commits, so each replica drops what it holds
    /// of that tenant. Recording an API key's use (`last_used_at`) and tenants' other columns notify nothing.
    static let configurationNotifications = """
        CREATE FUNCTION switchyard_config_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
        BEGIN
            IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'api_keys'
                AND to_jsonb(NEW) - 'last_used_at' = to_jsonb(OLD) - 'last_used_at' THEN
                RETURN NULL;
            END IF;
            IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'tenants'
                AND changed -> 'policy' IS NOT DISTINCT FROM to_jsonb(OLD) -> 'policy' THEN
                RETURN NULL;
            END IF;
            PERFORM pg_notify('switchyard_config',
                CASE WHEN TG_TABLE_NAME = 'tenants' THEN changed ->> 'id' ELSE changed ->> 'tenant_id' END);
            RETURN NULL;
        END $$;
        CREATE TRIGGER tenants_config_notify AFTER INSERT OR UPDATE OR DELETE ON tenants
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        CREATE TRIGGER api_keys_config_notify AFTER INSERT OR UPDATE OR DELETE ON api_keys
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        CREATE TRIGGER provider_accounts_config_notify AFTER INSERT OR UPDATE OR DELETE ON provider_accounts
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        CREATE TRIGGER routing_rules_config_notify AFTER INSERT OR UPDATE OR DELETE ON routing_rules
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        CREATE TRIGGER routing_versions_config_notify AFTER INSERT OR UPDATE OR DELETE ON routing_versions
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        """
}

extension Schema {
    /// Migration 18: the server incarnations running on the database (see `PostgresStore+InstanceRegistry.swift`),
    /// one row per replica id with its current incarnation and last heartbeat; and the keys still in progress,
    /// by the end of their lease, which the janitor settles once it has passed.
    static var instances: String {
        """
        CREATE TABLE server_instances (
            replica_id text PRIMARY KEY,
            incarnation bigint NOT NULL,
            started_at timestamptz NOT NULL,
            heartbeat_at timestamptz NOT NULL,
            keys_released_at timestamptz
        );
        CREATE INDEX server_instances_heartbeat ON server_instances (heartbeat_at) WHERE keys_released_at IS NULL;
        CREATE INDEX idempotency_keys_in_progress ON idempotency_keys (locked_until) WHERE completed_at IS NULL;
        """
    }
}

extension Schema {
    /// One index per retention delete (see `PostgresStore+Retention.swift`), each partial on what the delete
    /// may remove and ordered by the age it compares, so a delete reads the oldest finished rows first and
    /// never scans the rows it keeps (unanswered keys, pending deliveries, unhandled notifications):
    ///
    /// - `idempotency_keys_answered (completed_at) WHERE completed_at IS NOT NULL`;
    /// - `webhook_deliveries_final_age (updated_at) WHERE status IN ('succeeded', 'dead', 'canceled')`; the
    ///   deliveries' attempts are found through `webhook_attempts_delivery (delivery_id, number)`;
    /// - `webhook_events_age (created_at)`; whether an event has a delivery left is looked up through
    ///   `webhook_deliveries_event (event_id)`;
    /// - `notifications_handled_age (applied_at) WHERE verified AND applied_at IS NOT NULL`; the payment of a
    ///   rejected notification is found by its primary key;
    /// - `audit_log_age (at)`.
    ///
    /// The store tests check with `EXPLAIN` that each delete's selection uses its index.
    static var retention: String {
        """
        CREATE INDEX idempotency_keys_answered ON idempotency_keys (completed_at) WHERE completed_at IS NOT NULL;
        CREATE INDEX webhook_deliveries_final_age ON webhook_deliveries (updated_at)
            WHERE status IN ('succeeded', 'dead', 'canceled');
        CREATE INDEX webhook_events_age ON webhook_events (created_at);
        CREATE INDEX notifications_handled_age ON notifications (applied_at) WHERE verified AND applied_at IS NOT NULL;
        CREATE INDEX audit_log_age ON audit_log (at);
        """
    }
}

extension Schema {
    /// The janitor's bookkeeping for every non-final state besides `unknown` payments: when an `authorized`
    /// payment was last synced for its authorisation hold; the schedule of refunds and captures left
    /// `pending` or `unknown` and why one went to review; and the reason a verified notification was not
    /// applied (its report was rejected by the payment's state), with the payment it concerned.
    static var settlement: String {
        """
        ALTER TABLE payments ADD COLUMN hold_synced_at timestamptz;
        CREATE INDEX payments_authorized ON payments (created_at) WHERE status = 'authorized';
        ALTER TABLE refunds ADD COLUMN sync_count integer NOT NULL DEFAULT 0;
        ALTER TABLE refunds ADD COLUMN next_sync_at timestamptz;
        ALTER TABLE refunds ADD COLUMN review_reason text;
        CREATE INDEX refunds_open ON refunds (created_at) WHERE status IN ('pending', 'unknown');
        CREATE INDEX refunds_review ON refunds (tenant_id) WHERE review_reason IS NOT NULL;
        ALTER TABLE payment_operations ADD COLUMN sync_count integer NOT NULL DEFAULT 0;
        ALTER TABLE payment_operations ADD COLUMN next_sync_at timestamptz;
        ALTER TABLE payment_operations ADD COLUMN review_reason text;
        CREATE INDEX payment_operations_open_captures ON payment_operations (created_at)
            WHERE kind = 'capture' AND outcome IN ('pending', 'unknown');
        CREATE INDEX payment_operations_review ON payment_operations (tenant_id) WHERE review_reason IS NOT NULL;
        ALTER TABLE notifications ADD COLUMN review_code text;
        ALTER TABLE notifications ADD COLUMN review_message text;
        ALTER TABLE notifications ADD COLUMN payment_id text;
        CREATE INDEX notifications_review ON notifications (received_at) WHERE review_code IS NOT NULL;
        """
    }
}
