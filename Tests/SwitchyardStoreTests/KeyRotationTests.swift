import Foundation
import Logging
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardTestSupport
import Testing

@testable import SwitchyardStore

/// `switchyard kek rotate`: every sealed value moves to the current key in batches, while others write.
struct KeyRotationTests {
    static let logger = Logger(label: "test")

    /// Seals one value of every sealed kind under `store`'s key (three webhook endpoints, so that a batch
    /// of two takes two transactions, the second rotated so that its replaced secret is kept); returns the
    /// tenant, the account and the endpoints' ids.
    static func seedEveryKind(_ store: PostgresStore) async throws -> (tenant: UUID, account: UUID, endpoints: [String])
    {
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        let account = try await store.accounts.createAccount(
            ProviderAccount(
                id: UUID(), tenantId: tenant, name: "A", pluginId: "antom", environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: ["merchant": "m1", "private_key": "pk-SECRET"],
                secretFields: ["private_key"], enabled: true, createdAt: Date()),
            actor: "test"
        ).id
        var endpoints: [String] = []
        for n in 0..<3 {
            endpoints.append(
                try await store.webhooks.createWebhookEndpoint(
                    tenant: tenant, url: "https://merchant.example/hooks/\(n)", description: nil, eventTypes: [],
                    actor: "test", maxEnabled: 5
                ).0.id)
        }
        _ = try await store.webhooks.rotateWebhookSecret(
            tenant: tenant, id: endpoints[1],
            rotation: try WebhookSecretRotation(requestedSeconds: 3600, defaultSeconds: 0, now: Date()), actor: "test")
        try await store.accessTokens.storeAccessToken(
            accountId: account, kind: "access", token: "at-SECRET", expiresAt: Date().addingTimeInterval(3600))
        var credential = StoredPaymentMethod(
            id: "pm_1", tenantId: tenant, customerId: "cust-1", accountId: account, pluginId: "antom",
            kind: "wallet_agreement", correlationId: "as_1", createdAt: Date())
        credential.apply(
            CredentialEvent(
                kind: .created, correlationId: "as_1", credentialKind: "wallet_agreement", token: "tok-SECRET",
                paymentMethodType: "GCASH"),
            at: Date())
        try await store.credentials.saveCredential(credential)
        try await store.payments.commit(
            PaymentChanges(
                payment: Payment(
                    id: "pay_1", tenantId: tenant, amount: 500, currency: "USD", country: "US", method: "alipay",
                    reference: "r-1", captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
                    status: .processing, createdAt: Date())))
        var operation = PaymentOperation(
            id: "cmp_1", paymentId: "pay_1", tenantId: tenant, kind: .complete, amount: 500, createdAt: Date())
        operation.replayData = ["encrypted_customer_input": .string("replay-SECRET")]
        let attempt = Attempt(
            id: "att_1", paymentId: "pay_1", tenantId: tenant, accountId: account, pluginId: "antom", sequence: 1,
            reason: "first", startedAt: Date())
        try await store.payments.commit(PaymentChanges(attempts: [attempt], operations: [operation]))
        return (tenant, account, endpoints)
    }

    /// The keys' total use, by key id.
    static func totals(_ store: PostgresStore) async throws -> [String: Int] {
        try await store.keyRotation.sealedValueCounts().reduce(into: [:]) { $0[$1.keyId, default: 0] += $1.count }
    }

    /// A webhook endpoint's signing secret as stored, opened with `box`.
    static func webhookSecret(_ store: PostgresStore, _ id: String, box: SecretBox) async throws -> String {
        let sealed = try await store.system { c in
            try await c.query("SELECT secret_encrypted FROM webhook_endpoints WHERE id = $1", [.text(id)]).first?
                .string("secret_encrypted") ?? ""
        }
        return try box.open(sealed, context: "webhook/\(id)")
    }

    @Test func everySealedKindMovesToTheNewKeyInBatchesAndARerunDoesNothing() async throws {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        let (idA, idB) = (SecretBox.keyId(of: a), SecretBox.keyId(of: b))
        try await PGPool.scoped(connectionString: database.appURL, size: 2, logger: Self.logger) { pool in
            let old = PostgresStore(pool: pool, secrets: try SecretBox(key: a), clock: { Date() }, logger: Self.logger)
            let seeded = try await Self.seedEveryKind(old)
            // One value sealed before key ids existed, by the old key.
            let legacy = try SecretBoxKeyringTests.legacySeal(
                "whsec_legacy", key: a, context: "webhook/\(seeded.endpoints[2])")
            try await old.system { c in
                try await c.query(
                    "UPDATE webhook_endpoints SET secret_encrypted = $1 WHERE id = $2",
                    [.text(legacy), .text(seeded.endpoints[2])])
            }
            #expect(try await Self.totals(old) == [idA: 7, PostgresKeyRotation.legacyKeyId: 1])

            let keyring = try SecretBox(key: b, previous: [a])
            let store = PostgresStore(pool: pool, secrets: keyring, clock: { Date() }, logger: Self.logger)
            let batches = Batches()
            let totals = try await store.keyRotation.rotateSealedValues(batchSize: 2) { column, resealed in
                batches.record(column, resealed)
            }
            #expect(totals.map(\.column) == SealedColumn.all.map(\.name))
            #expect(totals.map(\.resealed) == [1, 3, 1, 1, 1, 1])
            #expect(batches.seen["webhook_endpoints.secret_encrypted"] == [2, 3])
            #expect(try await Self.totals(store) == [idB: 8])
            let counts = try await store.keyRotation.sealedValueCounts()
            #expect(Set(counts.map(\.column)) == Set(SealedColumn.all.map(\.name)))

            // Every value opens with the new key alone.
            let newOnly = PostgresStore(
                pool: pool, secrets: try SecretBox(key: b), clock: { Date() }, logger: Self.logger)
            #expect(try await newOnly.accounts.account(id: seeded.account)?.credentials["private_key"] == "pk-SECRET")
            #expect(
                try await newOnly.accessTokens.accessToken(accountId: seeded.account, kind: "access")?.token
                    == "at-SECRET")
            #expect(try await newOnly.credentials.credential(tenant: seeded.tenant, id: "pm_1")?.token == "tok-SECRET")
            let record = try await newOnly.payments.record(tenant: seeded.tenant, paymentId: "pay_1")
            #expect(record?.operations.first?.replayData == ["encrypted_customer_input": .string("replay-SECRET")])
            let legacySecret = try await Self.webhookSecret(newOnly, seeded.endpoints[2], box: try SecretBox(key: b))
            #expect(legacySecret == "whsec_legacy")
            #expect(try await newOnly.openStoredSecret())

            // Nothing is left to do: a second run changes nothing.
            let again = try await store.keyRotation.rotateSealedValues(batchSize: 2)
            #expect(again.map(\.resealed) == [0, 0, 0, 0, 0, 0])
        }
    }

    @Test func aWriteDuringRotationIsNotLostAndTheLockedRowIsLeftForTheNextRun() async throws {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        try await PGPool.scoped(connectionString: database.appURL, size: 3, logger: Self.logger) { pool in
            let old = PostgresStore(pool: pool, secrets: try SecretBox(key: a), clock: { Date() }, logger: Self.logger)
            let seeded = try await Self.seedEveryKind(old)
            let keyring = try SecretBox(key: b, previous: [a])
            let store = PostgresStore(pool: pool, secrets: keyring, clock: { Date() }, logger: Self.logger)
            let written = seeded.endpoints[0]
            let fresh = try keyring.seal("whsec_new", context: "webhook/\(written)")

            // A server replaces an endpoint's secret: it holds the row while the rotation runs.
            let (held, holding) = AsyncStream<Void>.makeStream()
            let writer = Task {
                try await store.system { c in
                    try await c.query("SELECT id FROM webhook_endpoints WHERE id = $1 FOR UPDATE", [.text(written)])
                    holding.yield()
                    try await c.query("SELECT pg_sleep(2)")
                    try await c.query(
                        "UPDATE webhook_endpoints SET secret_encrypted = $1 WHERE id = $2",
                        [.text(fresh), .text(written)])
                }
            }
            var heldRow = held.makeAsyncIterator()
            await heldRow.next()
            let totals = try await store.keyRotation.rotateSealedValues(batchSize: 2)
            try await writer.value
            // The held row was skipped, not waited for, and the write it was taking stays.
            #expect(totals.first { $0.column == "webhook_endpoints.secret_encrypted" }?.resealed == 2)
            #expect(try await Self.webhookSecret(store, written, box: try SecretBox(key: b)) == "whsec_new")
            #expect(try await Self.totals(store) == [keyring.currentKeyId: 8])
            #expect(try await store.keyRotation.rotateSealedValues(batchSize: 2).map(\.resealed) == [0, 0, 0, 0, 0, 0])
        }
    }

    @Test func aValueSealedByAKeyTheKeyringLacksStopsTheRotationNamingIt() async throws {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        try await PGPool.scoped(connectionString: database.appURL, logger: Self.logger) { pool in
            let old = PostgresStore(pool: pool, secrets: try SecretBox(key: a), clock: { Date() }, logger: Self.logger)
            _ = try await Self.seedEveryKind(old)
            let store = PostgresStore(
                pool: pool, secrets: try SecretBox(key: b), clock: { Date() }, logger: Self.logger)
            await #expect(throws: StoreError.unknownKey(SecretBox.keyId(of: a))) {
                _ = try await store.keyRotation.rotateSealedValues(batchSize: 10)
            }
            await #expect(throws: StoreError.unknownKey(SecretBox.keyId(of: a))) {
                _ = try await store.openStoredSecret()
            }
        }
    }
}

/// What a rotation's progress reported, per column (also a flag a writer raises).
final class Batches: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: [Int]] = [:]

    func record(_ column: String, _ resealed: Int) {
        lock.withLock { values[column, default: []].append(resealed) }
    }

    var seen: [String: [Int]] { lock.withLock { values } }
}
