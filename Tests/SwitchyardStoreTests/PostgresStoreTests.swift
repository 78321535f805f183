import Foundation
import Logging
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardTestSupport
import Testing

@testable import SwitchyardStore

struct PostgresStoreTests {
    func makeStore() async throws -> PostgresStore {
        try await makeStoreWithURL().store
    }

    /// A migrated store on a fresh database, with the database's application URL.
    func makeStoreWithURL() async throws -> (store: PostgresStore, url: String) {
        let url = try await TestPostgres.freshSwitchyardDatabase().appURL
        let pool = try PGPool(PostgresConfiguration(connectionString: url, poolSize: 4), logger: Logger(label: "test"))
        let store = PostgresStore(
            pool: pool, secrets: try SecretBox(key: SecureRandom.bytes(32)), clock: { Date() },
            logger: Logger(label: "test"))
        try await store.migrate()
        return (store, url)
    }

    func payment(_ tenant: UUID, id: String) -> Payment {
        Payment(
            id: id, tenantId: tenant, amount: 500, currency: "USD", country: "US", method: "alipay",
            reference: "r-\(id)",
            captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:], status: .processing,
            createdAt: Date())
    }

    @Test func migrationsAreIdempotent() async throws {
        let store = try await makeStore()
        #expect(try await store.migrate().isEmpty)
        let versions = try await store.pool.withConnection { c in
            try await c.query("SELECT version FROM schema_migrations ORDER BY version").rows.map {
                try $0.int64("version")
            }
        }
        #expect(versions == Schema.migrations.map { Int64($0.version) })
    }

    @Test func rowLevelSecurityKeepsTenantsApart() async throws {
        let store = try await makeStore()
        let a = try await store.tenants.createTenant(name: "A", actor: "test")
        let b = try await store.tenants.createTenant(name: "B", actor: "test")
        try await store.payments.commit(PaymentChanges(payment: payment(a.id, id: "pay_a")))
        try await store.payments.commit(PaymentChanges(payment: payment(b.id, id: "pay_b")))
        // Even a query with no tenant filter sees only the scoped tenant's rows.
        let seenByA = try await store.tenantScoped(a.id) { c in
            try await c.query("SELECT id FROM payments ORDER BY id").rows.map { try $0.string("id") }
        }
        #expect(seenByA == ["pay_a"])
        let seenByB = try await store.tenantScoped(b.id) { c in
            try await c.query("SELECT id FROM payments WHERE id = 'pay_a'").rows.count
        }
        #expect(seenByB == 0)
        // Writing a row for another tenant from inside a tenant scope is refused by the policy.
        await #expect(throws: PGError.self) {
            try await store.tenantScoped(a.id) { c in
                try await c.query(
                    PostgresPayments.upsertPayment,
                    try PostgresPayments.paymentParameters(self.payment(b.id, id: "pay_x")))
            }
        }
        #expect(try await store.payments.record(tenant: b.id, paymentId: "pay_a") == nil)
        #expect(try await store.payments.record(tenant: a.id, paymentId: "pay_a") != nil)
    }

    @Test func secretsAreEncryptedAtRestAndKeysStoredAsHashes() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test")
        let secret = "super-secret-private-key-123456"
        let account = try await store.accounts.createAccount(
            ProviderAccount(
                id: UUID(), tenantId: tenant.id, name: "c", pluginId: "citcon", environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: ["private_key": secret, "merchant": "m-1"],
                secretFields: ["private_key"], enabled: true, createdAt: Date()),
            actor: "test")
        let raw = try await store.pool.withConnection { c in
            try await c.query("SELECT credentials::text AS p, secret_credentials::text AS s FROM provider_accounts")
                .rows.map {
                    (try $0.string("p"), try $0.string("s"))
                }
        }
        #expect(raw.count == 1)
        #expect(!raw[0].0.contains(secret))
        #expect(!raw[0].1.contains(secret))
        #expect(raw[0].0.contains("m-1"), "non-secret fields stay readable")
        let loaded = try #require(try await store.accounts.account(tenant: tenant.id, id: account.id))
        #expect(loaded.credentials["private_key"] == secret)
        #expect(loaded.maskedCredentials["private_key"] != secret)

        let key = try await store.tenants.createAPIKey(
            tenant: tenant.id, name: "k", scopes: [.payments], expiresAt: nil, actor: "test")
        let keyColumns = try await store.pool.withConnection { c in
            try await c.query("SELECT row_to_json(api_keys)::text AS row FROM api_keys").rows.map {
                try $0.string("row")
            }
        }
        #expect(keyColumns.count == 1)
        #expect(!keyColumns[0].contains(key.secret))
        #expect(try await store.tenants.authenticate(secret: key.secret)?.id == key.key.id)
        #expect(try await store.tenants.authenticate(secret: key.secret + "x") == nil)
        _ = try await store.tenants.revokeAPIKey(tenant: tenant.id, id: key.key.id, actor: "test")
        #expect(try await store.tenants.authenticate(secret: key.secret) == nil)
    }

    @Test func theLiveAccountsOfEveryTenantAreReadWithTheirCredentialsOpened() async throws {
        let store = try await makeStore()
        var made: [UUID: String] = [:]
        for (name, environment) in [("A", "production"), ("B", "sandbox"), ("C", "live")] {
            let tenant = try await store.tenants.createTenant(name: name, actor: "test")
            let account = try await store.accounts.createAccount(
                ProviderAccount(
                    id: UUID(), tenantId: tenant.id, name: name, pluginId: "worldline-sips", environment: environment,
                    baseURL: "http://127.0.0.1:1",
                    credentials: ["merchant_id": "002001000000001", "secret_key": "002001000000001_KEY1"],
                    secretFields: ["secret_key"], enabled: true, createdAt: Date()),
                actor: "test")
            made[account.id] = environment
        }
        let live = try await store.accounts.liveAccounts()
        #expect(Set(live.map(\.id)) == Set(made.filter { $0.value != "sandbox" }.keys))
        #expect(live.allSatisfy { $0.credentials["secret_key"] == "002001000000001_KEY1" })
    }

    @Test func aSealedSecretCannotMoveToAnotherRow() throws {
        let box = try SecretBox(key: SecureRandom.bytes(32))
        let sealed = try box.seal("value", context: "account-1/private_key")
        #expect(try box.open(sealed, context: "account-1/private_key") == "value")
        #expect(throws: StoreError.self) { try box.open(sealed, context: "account-2/private_key") }
        #expect(throws: StoreError.self) {
            try SecretBox(key: SecureRandom.bytes(32)).open(sealed, context: "account-1/private_key")
        }
    }

    @Test func concurrentIdempotentClaimsLetExactlyOneProceed() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test")
        let results = try await withThrowingTaskGroup(of: (String, IdempotencyClaim).self) { group in
            for index in 0..<20 {
                group.addTask {
                    let owner = "owner-\(index)"
                    return (
                        owner,
                        try await store.idempotencyKeys.claimIdempotent(
                            tenant: tenant.id, key: "k", requestHash: "h", owner: owner, lease: 60)
                    )
                }
            }
            return try await group.reduce(into: [(String, IdempotencyClaim)]()) { $0.append($1) }
        }
        let winners = results.filter { $0.1 == .proceed }.map(\.0)
        #expect(winners.count == 1)
        #expect(results.filter { if case .held = $0.1 { true } else { false } }.count == 19)
        let outcome = IdempotentOutcome.createdPayment("pay_1")
        #expect(
            try await store.idempotencyKeys.finishIdempotent(
                tenant: tenant.id, key: "k", owner: try #require(winners.first), outcome: outcome))
        #expect(
            try await store.idempotencyKeys.claimIdempotent(
                tenant: tenant.id, key: "k", requestHash: "h", owner: "late", lease: 60)
                == .replay(outcome))
        #expect(
            try await store.idempotencyKeys.claimIdempotent(
                tenant: tenant.id, key: "k", requestHash: "other", owner: "late", lease: 60)
                == .mismatch)
    }

    @Test func refundsReservedConcurrentlyNeverExceedTheCapture() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test")
        var p = payment(tenant.id, id: "pay_r")
        p.status = .succeeded
        p.amountCaptured = 500
        try await store.payments.commit(PaymentChanges(payment: p))
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<10 {
                group.addTask {
                    let refund = Refund(
                        id: "re_\(index)", paymentId: "pay_r", tenantId: tenant.id, amount: 100, currency: "USD",
                        reason: nil, createdAt: Date())
                    return (try? await store.payments.reserveRefund(refund)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 5)
    }

    @Test func concurrentTransitionsNeverLoseAnUpdate() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test")
        try await store.payments.commit(PaymentChanges(payment: payment(tenant.id, id: "pay_t")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await store.payments.transition(tenant: tenant.id, paymentId: "pay_t", with: PaymentChanges()) {
                        $0.amountCaptured += 1
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.payments.record(tenant: tenant.id, paymentId: "pay_t")?.payment.amountCaptured == 20)
    }

    @Test func aSettledRefundIsNeverDowngradedNorCountedTwice() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test")
        var p = payment(tenant.id, id: "pay_s")
        p.status = .succeeded
        p.amountCaptured = 500
        try await store.payments.commit(PaymentChanges(payment: p))
        var refund = Refund(
            id: "re_s", paymentId: "pay_s", tenantId: tenant.id, amount: 200, currency: "USD", reason: nil,
            createdAt: Date())
        try await store.payments.reserveRefund(refund)
        refund.status = .succeeded
        try await store.payments.commit(PaymentChanges(refunds: [refund]))
        try await store.payments.commit(PaymentChanges(refunds: [refund]))
        refund.status = .unknown
        try await store.payments.commit(PaymentChanges(refunds: [refund]))
        let record = try #require(try await store.payments.record(tenant: tenant.id, paymentId: "pay_s"))
        #expect(record.refunds.first?.status == .succeeded)
        #expect(record.payment.amountRefunded == 200)
    }

    @Test func aLateUnknownNeverUndoesWhatAReplayLearnt() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test")
        let account = try await store.accounts.createAccount(
            ProviderAccount(
                id: UUID(), tenantId: tenant.id, name: "A", pluginId: "worldline-direct", environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date()),
            actor: "test")
        try await store.payments.commit(PaymentChanges(payment: payment(tenant.id, id: "pay_r")))
        let attempt = Attempt(
            id: "att_r", paymentId: "pay_r", tenantId: tenant.id, accountId: account.id, pluginId: "worldline-direct",
            sequence: 1, reason: "first", startedAt: Date())
        var operation = PaymentOperation(
            id: "cmp_r", paymentId: "pay_r", tenantId: tenant.id, kind: .complete, amount: 500, createdAt: Date())
        operation.replayData = ["encrypted_customer_input": .string("eyJ.secret-part")]
        try await store.payments.commit(PaymentChanges(attempts: [attempt], operations: [operation]))
        let kept = try #require(try await store.payments.record(tenant: tenant.id, paymentId: "pay_r"))
        #expect(kept.operations.first?.replayData == operation.replayData)
        let raw = try await store.pool.withConnection { c in
            try await c.query("SELECT replay FROM payment_operations WHERE id = 'cmp_r'").first?.optionalString(
                "replay")
        }
        #expect(raw?.hasPrefix("v2:") == true)
        #expect(raw?.contains("secret-part") == false)

        // A replay learns the outcome and the provider's id…
        var learnt = operation
        learnt.outcome = .succeeded
        learnt.replayData = nil
        var identified = attempt
        identified.providerPaymentId = "3066019731_0"
        try await store.payments.commit(PaymentChanges(attempts: [identified], operations: [learnt]))
        // …then the first call's timeout is written with what that caller knew.
        var late = operation
        late.outcome = .unknown
        try await store.payments.commit(PaymentChanges(attempts: [attempt], operations: [late]))
        let record = try #require(try await store.payments.record(tenant: tenant.id, paymentId: "pay_r"))
        #expect(record.operations.first?.outcome == .succeeded)
        #expect(record.operations.first?.replayData == nil)
        #expect(record.attempts.first?.providerPaymentId == "3066019731_0")
    }

    @Test func storedCredentialsAreSealedFoundByCorrelationOrTokenAndKeptPerTenant() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test")
        let other = try await store.tenants.createTenant(name: "O", actor: "test")
        let account = try await store.accounts.createAccount(
            ProviderAccount(
                id: UUID(), tenantId: tenant.id, name: "A", pluginId: "antom", environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date()),
            actor: "test")
        var credential = StoredPaymentMethod(
            id: "pm_1", tenantId: tenant.id, customerId: "cust-1", accountId: account.id, pluginId: "antom",
            kind: "wallet_agreement", correlationId: "as_1", createdAt: Date())
        try await store.credentials.saveCredential(credential)
        credential.apply(
            CredentialEvent(
                kind: .created, correlationId: "as_1", credentialKind: "wallet_agreement",
                token: "tok_SECRET_wallet_access", paymentMethodType: "GCASH"),
            at: Date())
        try await store.credentials.saveCredential(credential)
        let raw = try await store.pool.withConnection { c in
            try await c.query("SELECT token, token_digest FROM stored_credentials WHERE id = 'pm_1'").first
        }
        #expect(raw?.optionalString("token")?.hasPrefix("v2:") == true)
        #expect(raw?.optionalString("token")?.contains("SECRET") == false)
        #expect(raw?.optionalString("token_digest")?.contains("SECRET") == false)

        let byCorrelation = try await store.credentials.credential(
            tenant: tenant.id, accountId: account.id, correlationId: "as_1")
        #expect(byCorrelation?.status == .active)
        #expect(byCorrelation?.token == "tok_SECRET_wallet_access")
        let byToken = try await store.credentials.credential(
            tenant: tenant.id, accountId: account.id, token: "tok_SECRET_wallet_access")
        #expect(byToken?.id == "pm_1")
        #expect(try await store.credentials.credentials(tenant: tenant.id, customerId: "cust-1").map(\.id) == ["pm_1"])
        #expect(try await store.credentials.credentials(tenant: tenant.id, customerId: "cust-1").first?.token == nil)
        #expect(try await store.credentials.credential(tenant: other.id, id: "pm_1") == nil)
        #expect(try await store.credentials.credentials(tenant: other.id, customerId: "cust-1").isEmpty)
    }

    @Test func creatingTheClusterWideRoleToleratesAConcurrentCreator() async throws {
        // The first creator holds its transaction open; the second database's statement waits on the role's
        // unique index and sees the creation commit under it. That must not fail a migration.
        let role = "switchyard_test_" + Hex.encode(SecureRandom.bytes(6))
        let first = try PGPool(
            PostgresConfiguration(connectionString: try await TestPostgres.freshDatabase(), poolSize: 1),
            logger: Logger(label: "test"))
        let second = try PGPool(
            PostgresConfiguration(connectionString: try await TestPostgres.freshDatabase(), poolSize: 1),
            logger: Logger(label: "test"))
        let watcher = try PGPool(
            PostgresConfiguration(connectionString: try await TestPostgres.freshDatabase(), poolSize: 1),
            logger: Logger(label: "test"))
        let (created, createdContinuation) = AsyncStream<Void>.makeStream()
        let (gate, opening) = AsyncStream<Void>.makeStream()
        async let holder: Void = first.transaction { c in
            defer { createdContinuation.finish() }
            try await c.execute(Schema.createRole(role))
            createdContinuation.yield()
            for await _ in gate {}
        }
        for await _ in created { break }
        async let concurrent: Void = second.withConnection { c in try await c.execute(Schema.createRole(role)) }
        // The event to wait for: the second creator's statement blocked on the first's uncommitted row.
        var blocked = false
        for _ in 0..<20_000 where !blocked {
            blocked = try await watcher.withConnection { c in
                try await c.query(
                    "SELECT count(*)::bigint AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1",
                    [.text("%CREATE ROLE \(role) %")]
                ).first?.int64("n") == 1
            }
        }
        #expect(blocked)
        opening.finish()
        try await holder
        try await concurrent
        let count = try await second.withConnection { c in
            try await c.query("SELECT count(*)::bigint AS n FROM pg_roles WHERE rolname = $1", [.text(role)]).first?
                .int64(
                    "n")
        }
        #expect(count == 1)
        try await second.withConnection { c in try await c.execute("DROP ROLE \(role)") }
        await first.shutdown()
        await second.shutdown()
        await watcher.shutdown()
    }
}
