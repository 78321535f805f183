/// The SQL of the overdue-notification migration, which ``Schema/migrations`` lists in order.
enum OverdueNotificationMigrations {
    /// Each account's observed delays from a payment's creation to the notification that settled it, and
    /// each waiting payment's overdue inquiries and when the next is due.
    static var overdue: String {
        """
        CREATE TABLE notification_delays (
            id bigserial PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            account_id uuid NOT NULL,
            seconds double precision NOT NULL CHECK (seconds >= 0),
            observed_at timestamptz NOT NULL
        );
        CREATE INDEX notification_delays_age ON notification_delays (observed_at);
        ALTER TABLE payments ADD COLUMN overdue_inquiries integer NOT NULL DEFAULT 0;
        ALTER TABLE payments ADD COLUMN overdue_next_at timestamptz;
        CREATE INDEX payments_overdue ON payments (created_at) WHERE status = 'requires_action';
        GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO \(Schema.tenantRole);
        \(Schema.tenantIsolation("notification_delays"))
        """
    }
}
