/// The SQL of the retention migrations, which ``Schema/migrations`` lists in order.
enum RetentionMigrations {
    /// One index per retention delete (see `PostgresRetention.swift`), each partial on what the delete
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
