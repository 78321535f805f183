import Foundation
import Logging
import SwitchyardTestSupport
import Testing

@testable import SwitchyardStore

/// Migration 22 gives existing rows their mode: payments and stored payment methods their account's
/// environment's, refunds their payment's, events their object's; keys and endpoints are test.
struct LivemodeMigrationTests {
    static let logger = Logger(label: "test")
    static let tables = [
        "api_keys", "payments", "refunds", "stored_credentials", "webhook_events", "webhook_endpoints",
    ]

    /// A migrated database taken back to before migration 22 (as its owner), then filled as an older server
    /// would have left it.
    static let before = """
        DROP INDEX payments_tenant_mode_created;
        \(tables.map { "ALTER TABLE \($0) DROP COLUMN livemode;" }.joined(separator: "\n"))
        DELETE FROM schema_migrations WHERE version = 22;
        """

    static let rows = """
        INSERT INTO tenants (id, name, created_at) VALUES ('00000000-0000-0000-0000-00000000000a', 'T', now());
        INSERT INTO api_keys (id, tenant_id, prefix, key_hash, name, scopes, created_at)
            VALUES (gen_random_uuid(), '00000000-0000-0000-0000-00000000000a', 'sk_abcdefgh', 'h', 'old', '{payments}',
                now());
        INSERT INTO provider_accounts (id, tenant_id, name, plugin_id, environment, base_url, credentials,
            secret_credentials, options, enabled, created_at, updated_at) VALUES
            ('00000000-0000-0000-0000-0000000000a1', '00000000-0000-0000-0000-00000000000a', 'live', 'antom',
                'production', 'http://x', '{}', '{}', '{}', true, now(), now()),
            ('00000000-0000-0000-0000-0000000000a2', '00000000-0000-0000-0000-00000000000a', 'test', 'antom',
                'sandbox', 'http://x', '{}', '{}', '{}', true, now(), now());
        INSERT INTO payments (id, tenant_id, amount, currency, country, method, reference, capture_mode, payment_data,
            status, provider_account_id, created_at, updated_at) VALUES
            ('pay_live', '00000000-0000-0000-0000-00000000000a', 100, 'PHP', 'PH', 'gcash', 'r1', 'automatic', '{}',
                'succeeded', '00000000-0000-0000-0000-0000000000a1', now(), now()),
            ('pay_test', '00000000-0000-0000-0000-00000000000a', 100, 'PHP', 'PH', 'gcash', 'r2', 'automatic', '{}',
                'succeeded', '00000000-0000-0000-0000-0000000000a2', now(), now()),
            ('pay_none', '00000000-0000-0000-0000-00000000000a', 100, 'PHP', 'PH', 'gcash', 'r3', 'automatic', '{}',
                'failed', NULL, now(), now());
        INSERT INTO refunds (id, payment_id, tenant_id, amount, currency, status, created_at, updated_at) VALUES
            ('re_live', 'pay_live', '00000000-0000-0000-0000-00000000000a', 10, 'PHP', 'pending', now(), now()),
            ('re_test', 'pay_test', '00000000-0000-0000-0000-00000000000a', 10, 'PHP', 'pending', now(), now());
        INSERT INTO stored_credentials (id, tenant_id, customer_id, account_id, plugin_id, kind, status,
            correlation_id, created_at, updated_at) VALUES
            ('pm_live', '00000000-0000-0000-0000-00000000000a', 'c', '00000000-0000-0000-0000-0000000000a1', 'antom',
                'card', 'active', 'x1', now(), now()),
            ('pm_test', '00000000-0000-0000-0000-00000000000a', 'c', '00000000-0000-0000-0000-0000000000a2', 'antom',
                'card', 'active', 'x2', now(), now());
        INSERT INTO webhook_events (id, tenant_id, type, object_id, payload, created_at) VALUES
            ('evt_pay_live', '00000000-0000-0000-0000-00000000000a', 'payment.succeeded', 'pay_live', '{}', now()),
            ('evt_re_live', '00000000-0000-0000-0000-00000000000a', 'refund.pending', 're_live', '{}', now()),
            ('evt_pm_live', '00000000-0000-0000-0000-00000000000a', 'payment_method.active', 'pm_live', '{}', now()),
            ('evt_pay_test', '00000000-0000-0000-0000-00000000000a', 'payment.succeeded', 'pay_test', '{}', now());
        INSERT INTO webhook_endpoints (id, tenant_id, url, event_types, secret_encrypted, created_at, updated_at)
            VALUES ('we_old', '00000000-0000-0000-0000-00000000000a', 'http://x', '["*"]', 's', now(), now());
        """

    @Test func existingRowsTakeTheModeOfTheirAccountsEnvironment() async throws {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        try await PGPool.scoped(connectionString: database.ownerURL, logger: Self.logger) { owner in
            try await owner.transaction { c in try await c.execute(Self.before) }
        }
        try await PGPool.scoped(connectionString: database.adminURL, logger: Self.logger) { admin in
            try await admin.transaction { c in try await c.execute(Self.rows) }
        }
        // Migrated again as the owner, whom row-level security binds.
        try await PGPool.scoped(connectionString: database.ownerURL, logger: Self.logger) { owner in
            let applied = try await Migrator.migrate(owner, migrations: Schema.migrations, logger: Self.logger)
            #expect(applied == [22])
        }
        try await PGPool.scoped(connectionString: database.adminURL, logger: Self.logger) { admin in
            let modes = try await admin.transaction { c in
                var modes: [(String, Bool)] = []
                for table in Self.tables {
                    modes += try await c.query("SELECT id::text AS id, livemode FROM \(table)").rows.map {
                        ("\(table):\(try $0.string("id"))", try $0.bool("livemode"))
                    }
                }
                return modes
            }
            let live = Set(modes.filter { $0.1 }.map { $0.0 })
            #expect(
                live == [
                    "payments:pay_live", "refunds:re_live", "stored_credentials:pm_live", "webhook_events:evt_pay_live",
                    "webhook_events:evt_re_live", "webhook_events:evt_pm_live",
                ])
            #expect(modes.count == 13)
            let unforced = try await admin.transaction { c in
                try await c.query(
                    """
                    SELECT count(*)::bigint AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity AND NOT c.relforcerowsecurity
                    """
                ).first?.int64("n")
            }
            #expect(unforced == 0)
        }
    }
}
