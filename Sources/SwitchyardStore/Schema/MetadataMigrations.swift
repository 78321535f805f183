/// The SQL of the metadata migrations, which ``Schema/migrations`` lists in order.
enum MetadataMigrations {
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
