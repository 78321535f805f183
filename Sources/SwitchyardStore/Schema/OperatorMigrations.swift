/// The SQL of the operator migrations, which ``Schema/migrations`` lists in order.
enum OperatorMigrations {
    /// Named operators with a role and a hashed token (names unique without case), every change of one
    /// announced on `switchyard_config` so each replica drops the tokens it holds (a revoked token is refused
    /// everywhere at once), and the audit log's columns naming the operator, its role, the request and
    /// where it came from. Operators are platform rows: only the system role reads them.
    static var operators: String {
        """
        CREATE TABLE operators (
            id uuid PRIMARY KEY,
            name text NOT NULL,
            role text NOT NULL,
            token_hash text NOT NULL UNIQUE,
            token_prefix text NOT NULL,
            created_at timestamptz NOT NULL,
            expires_at timestamptz,
            revoked_at timestamptz,
            last_used_at timestamptz
        );
        CREATE UNIQUE INDEX operators_name ON operators (lower(name));
        CREATE FUNCTION switchyard_operators_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'UPDATE' AND to_jsonb(NEW) - 'last_used_at' = to_jsonb(OLD) - 'last_used_at' THEN
                RETURN NULL;
            END IF;
            PERFORM pg_notify('switchyard_config', 'operators');
            RETURN NULL;
        END $$;
        CREATE TRIGGER operators_config_notify AFTER INSERT OR UPDATE OR DELETE ON operators
            FOR EACH ROW EXECUTE FUNCTION switchyard_operators_notify();
        ALTER TABLE audit_log ADD COLUMN operator_id uuid, ADD COLUMN operator_name text,
            ADD COLUMN operator_role text, ADD COLUMN request_id text, ADD COLUMN source_address text;
        CREATE INDEX audit_log_operator ON audit_log (operator_id, at DESC) WHERE operator_id IS NOT NULL;
        """
    }

    /// A rejected notification an operator resolved: when, and the note they left.
    static var reviewResolution: String {
        """
        ALTER TABLE notifications ADD COLUMN review_resolved_at timestamptz, ADD COLUMN review_note text;
        """
    }
}
