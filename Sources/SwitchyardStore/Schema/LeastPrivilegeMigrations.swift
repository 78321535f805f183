/// The SQL of the least-privilege role migrations, which ``Schema/migrations`` lists in order.
enum LeastPrivilegeMigrations {
    /// The current tenant, as the policies compare it (NULL outside a tenant-scoped transaction).
    static let currentTenant = "NULLIF(current_setting('\(Schema.tenantSetting)', true), '')::uuid"

    /// The application connects as a login role that does not own the tables.
    ///
    /// Cross-tenant work (operator actions, workers, lookups by provider reference) runs as that login
    /// role directly. Rather than BYPASSRLS (which only a superuser may grant, and which managed
    /// databases often refuse), it holds the rights of ``systemRole``: DML on every table and a
    /// `system_access` policy on every table with row-level security. Tenant-scoped transactions
    /// `SET ROLE` to ``tenantRole``, which is not a member of ``systemRole`` and so sees only the
    /// `tenant_isolation` policies. `FORCE ROW LEVEL SECURITY` makes the tables' owner subject to the
    /// policies too: the owner migrates, it does not read tenants' data.
    ///
    /// `tenants` and `audit_log` become tenant tables as well: a tenant sees only its own row and
    /// reads and writes only its own audit entries.
    static var leastPrivilege: String {
        """
        \(Schema.createRole(Schema.systemRole))
        GRANT USAGE ON SCHEMA public TO \(Schema.systemRole);
        GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(Schema.systemRole);
        REVOKE INSERT, UPDATE, DELETE ON schema_migrations FROM \(Schema.systemRole);
        GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO \(Schema.systemRole);
        ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO \(Schema.systemRole);
        ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO \(Schema.systemRole);
        ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
        CREATE POLICY tenant_self ON tenants FOR SELECT TO \(Schema.tenantRole) USING (id = \(currentTenant));
        GRANT SELECT ON audit_log TO \(Schema.tenantRole);
        ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
        CREATE POLICY tenant_audit_read ON audit_log FOR SELECT TO \(Schema.tenantRole)
            USING (tenant_id = \(currentTenant));
        CREATE POLICY tenant_audit_write ON audit_log FOR INSERT TO \(Schema.tenantRole)
            WITH CHECK (tenant_id = \(currentTenant));
        DO $$
        DECLARE
            name text;
        BEGIN
            FOR name IN
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity
            LOOP
                EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', name);
                IF NOT EXISTS (
                    SELECT 1 FROM pg_policy WHERE polrelid = format('%I', name)::regclass AND polname = 'system_access'
                ) THEN
                    EXECUTE format(
                        'CREATE POLICY system_access ON %I TO \(Schema.systemRole) USING (true) WITH CHECK (true)', name);
                END IF;
            END LOOP;
        END $$;
        """
    }

    /// When ``systemRole`` exists: forces row-level security on `table` and gives the system its
    /// `system_access` policy there, unless it has it already.
    static func systemAccess(_ table: String) -> String {
        """
        DO $$ BEGIN
            IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(Schema.systemRole)') THEN
                ALTER TABLE \(table) FORCE ROW LEVEL SECURITY;
                IF NOT EXISTS (
                    SELECT 1 FROM pg_policy WHERE polrelid = '\(table)'::regclass AND polname = 'system_access'
                ) THEN
                    CREATE POLICY system_access ON \(table) TO \(Schema.systemRole) USING (true) WITH CHECK (true);
                END IF;
            END IF;
        END $$;
        """
    }
}
