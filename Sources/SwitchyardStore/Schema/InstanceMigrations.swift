/// The SQL of the server instance migrations, which ``Schema/migrations`` lists in order.
enum InstanceMigrations {
    /// Migration 18: the server incarnations running on the database (see `PostgresInstances.swift`),
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
