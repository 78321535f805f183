import Foundation
import Logging
import SwitchyardCrypto
import SwitchyardTestSupport
import Testing

@testable import SwitchyardStore

/// What `switchyard doctor` reads of a database, through the server's login and the owner's.
struct DatabaseDiagnosisTests {
    static let logger = Logger(label: "test")

    func diagnose(_ url: String, key: [UInt8]) async throws -> DatabaseDiagnosis {
        try await PGPool.scoped(connectionString: url, logger: Self.logger) { pool in
            try await PostgresStore(
                pool: pool, secrets: try SecretBox(key: key), clock: { Date() }, logger: Self.logger
            )
            .diagnose()
        }
    }

    @Test func theApplicationRoleIsConfinedAndTheKeyIsCheckedAgainstAStoredSecret() async throws {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let key = SecureRandom.bytes(32)
        let before = try await diagnose(database.appURL, key: key)
        #expect(before.superuser == false)
        #expect(before.bypassesRowSecurity == false)
        #expect(before.ownsTables == false)
        #expect(before.unconfinedTables == [])
        #expect(before.appliedMigrations == Schema.migrations.map(\.version))
        #expect(before.keyOpensStoredSecret == nil)

        try await PGPool.scoped(connectionString: database.appURL, logger: Self.logger) { pool in
            let store = PostgresStore(
                pool: pool, secrets: try SecretBox(key: key), clock: { Date() }, logger: Self.logger)
            let tenant = try await store.tenants.createTenant(name: "A", actor: "test").id
            _ = try await store.webhooks.createWebhookEndpoint(
                tenant: tenant, url: "https://merchant.example/hooks", description: nil, eventTypes: [],
                actor: "test", maxEnabled: 5)
        }
        #expect(try await diagnose(database.appURL, key: key).keyOpensStoredSecret == true)
        #expect(try await diagnose(database.appURL, key: SecureRandom.bytes(32)).keyOpensStoredSecret == false)
    }

    @Test func theOwnerAndAnUnforcedTableAreSeen() async throws {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let key = SecureRandom.bytes(32)
        #expect(try await diagnose(database.ownerURL, key: key).ownsTables == true)
        try await PGPool.scoped(connectionString: database.ownerURL, logger: Self.logger) { pool in
            try await pool.withConnection { c in
                try await c.execute("ALTER TABLE payments NO FORCE ROW LEVEL SECURITY")
                try await c.execute(
                    "DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)")
            }
        }
        let after = try await diagnose(database.appURL, key: key)
        #expect(after.unconfinedTables == ["payments"])
        #expect(after.appliedMigrations == Schema.migrations.map(\.version).dropLast())
    }
}
