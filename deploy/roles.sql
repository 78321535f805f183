-- The database roles of a Switchyard deployment on an external PostgreSQL; run once as a superuser:
--   psql -v ON_ERROR_STOP=1 -v owner_password="…" -v app_password="…" -d postgres -f deploy/roles.sql
-- The same roles the embedded default creates (DatabaseRoles.provision):
--   switchyard_owner   owns the database and the tables; `switchyard migrate` connects as it
--   switchyard_app     the server's login; owns nothing, no BYPASSRLS
--   switchyard_system  (no login) cross-tenant rights on the tables, granted to switchyard_app
--   switchyard_tenant  (no login) what tenant-scoped transactions SET ROLE to; row-level security applies
SELECT format('CREATE ROLE switchyard_owner LOGIN PASSWORD %L', :'owner_password')
    WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchyard_owner') \gexec
SELECT format('CREATE ROLE switchyard_app LOGIN PASSWORD %L', :'app_password')
    WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchyard_app') \gexec
SELECT 'CREATE ROLE switchyard_tenant NOLOGIN'
    WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchyard_tenant') \gexec
SELECT 'CREATE ROLE switchyard_system NOLOGIN'
    WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchyard_system') \gexec
GRANT switchyard_system, switchyard_tenant TO switchyard_app;
SELECT 'CREATE DATABASE switchyard OWNER switchyard_owner'
    WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'switchyard') \gexec
\connect switchyard
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE, CREATE ON SCHEMA public TO switchyard_owner;
