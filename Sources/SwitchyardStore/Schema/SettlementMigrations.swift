/// The SQL of the settlement migrations, which ``Schema/migrations`` lists in order.
enum SettlementMigrations {
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
