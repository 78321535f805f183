/// The SQL of the routing replay migrations, which ``Schema/migrations`` lists in order.
enum RoutingReplayMigrations {
    /// What replaying a draft routing over past traffic needs of each definite answer: the payment and its
    /// amount, whether the attempt was the payment's first (the one replay scores), the probability with
    /// which the live routing chose the attempt's account (first attempts routed by a rule only) and the
    /// account's fee for the payment. Rows written before have none of it and are not replayed.
    static var routingReplay: String {
        """
        ALTER TABLE routing_outcomes ADD COLUMN payment_id text;
        ALTER TABLE routing_outcomes ADD COLUMN amount bigint;
        ALTER TABLE routing_outcomes ADD COLUMN first_attempt boolean;
        ALTER TABLE routing_outcomes ADD COLUMN propensity double precision
            CHECK (propensity IS NULL OR (propensity > 0 AND propensity <= 1));
        ALTER TABLE routing_outcomes ADD COLUMN fee bigint;
        CREATE INDEX routing_outcomes_replay ON routing_outcomes (tenant_id, decided_at DESC, attempt_id DESC)
            WHERE propensity IS NOT NULL;
        """
    }
}
