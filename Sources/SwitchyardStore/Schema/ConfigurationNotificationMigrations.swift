/// The SQL of the configuration change notification migrations, which ``Schema/migrations`` lists in order.
enum ConfigurationNotificationMigrations {
    /// Every write to a tenant's configuration (its policy, API keys, provider accounts, routing) notifies
    /// channel `switchyard_config` with the tenant's id when it commits, so each replica drops what it holds
    /// of that tenant. Recording an API key's use (`last_used_at`) and tenants' other columns notify nothing.
    static let configurationNotifications = """
        CREATE FUNCTION switchyard_config_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
        BEGIN
            IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'api_keys'
                AND to_jsonb(NEW) - 'last_used_at' = to_jsonb(OLD) - 'last_used_at' THEN
                RETURN NULL;
            END IF;
            IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'tenants'
                AND changed -> 'policy' IS NOT DISTINCT FROM to_jsonb(OLD) -> 'policy' THEN
                RETURN NULL;
            END IF;
            PERFORM pg_notify('switchyard_config',
                CASE WHEN TG_TABLE_NAME = 'tenants' THEN changed ->> 'id' ELSE changed ->> 'tenant_id' END);
            RETURN NULL;
        END $$;
        CREATE TRIGGER tenants_config_notify AFTER INSERT OR UPDATE OR DELETE ON tenants
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        CREATE TRIGGER api_keys_config_notify AFTER INSERT OR UPDATE OR DELETE ON api_keys
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        CREATE TRIGGER provider_accounts_config_notify AFTER INSERT OR UPDATE OR DELETE ON provider_accounts
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        CREATE TRIGGER routing_rules_config_notify AFTER INSERT OR UPDATE OR DELETE ON routing_rules
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        CREATE TRIGGER routing_versions_config_notify AFTER INSERT OR UPDATE OR DELETE ON routing_versions
            FOR EACH ROW EXECUTE FUNCTION switchyard_config_notify();
        """
}
