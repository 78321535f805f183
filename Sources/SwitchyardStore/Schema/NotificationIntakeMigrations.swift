/// The SQL of the notification intake migrations, which ``Schema/migrations`` lists in order.
enum NotificationIntakeMigrations {
    /// Per-account bookkeeping of unverifiable notifications (the last background sync they caused and how
    /// many were counted but not stored), when a verified notification was applied, and the indexes the
    /// sweeper and the hourly cap use.
    static var notificationIntake: String {
        """
        CREATE TABLE notification_intake (
            account_id uuid PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            last_unverified_sync_at timestamptz,
            unverified_dropped bigint NOT NULL DEFAULT 0
        );
        \(Schema.tenantIsolation("notification_intake"))
        ALTER TABLE notifications ADD COLUMN applied_at timestamptz;
        UPDATE notifications SET applied_at = received_at WHERE verified;
        CREATE INDEX notifications_unverified ON notifications (account_id, received_at) WHERE NOT verified;
        CREATE INDEX notifications_unverified_age ON notifications (received_at) WHERE NOT verified;
        """
    }
}
