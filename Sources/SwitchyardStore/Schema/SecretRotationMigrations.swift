/// The SQL of the webhook secret rotation migrations, which ``Schema/migrations`` lists in order.
enum SecretRotationMigrations {
    /// Webhook secret rotation: the replaced secret, sealed like the current one (``SealContext/webhook(_:)``),
    /// and until when it still signs deliveries.
    static var secretRotation: String {
        """
        ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_encrypted text;
        ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at timestamptz;
        """
    }
}
