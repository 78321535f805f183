/// The SQL of the tenant API version migrations, which ``Schema/migrations`` lists in order.
enum APIVersionMigrations {
    /// The merchant API version each tenant is pinned to (``SwitchyardCore/APIVersion``): set when the
    /// tenant's first API key is created; NULL for tenants that had keys before versions existed, which
    /// behave as the oldest version.
    static var apiVersions: String {
        """
        ALTER TABLE tenants ADD COLUMN api_version text;
        """
    }
}
