import Foundation
import ProviderSandbox
import SwitchyardCore
import SwitchyardStore
import TestWaiting
import Testing

/// The database cost of the payment API, counted per tenant with a ``PGWatch`` on the server's pool:
/// a create commits one transaction before its provider call and one after; a page of payments costs the
/// same queries whatever its size; an exhausted pool answers `503 database_busy` instead of waiting.
@Suite(.serialized)
struct CreateTransactionTests {
    static func body(_ reference: String) -> [String: Any] {
        ["amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": reference]
    }

    static func tenant(_ m: TestStack.Merchant) throws -> UUID {
        try #require(UUID(uuidString: m.tenantId))
    }

    @Test func aCreateCommitsOneWritingTransactionBeforeItsProviderCallAndOneAfter() async throws {
        // A lifetime longer than the test: the configuration read by the first payment stays in memory.
        try await TestStack.with(policy: { $0.caching.ttlMs = 60_000 }) { stack in
            let m = try await stack.merchant()
            let store = stack.runtime.store
            // The first payment reads the tenant's configuration (policy, routing, accounts, the chosen
            // account's secrets) once; the cache serves it from then on.
            let cold = store.watchTenant(try Self.tenant(m))
            let first = try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: Self.body("tx-cold"))
            #expect(first.status == 201)
            #expect(cold.tally.writingTransactions == 2, "\(cold.tally)")
            #expect(cold.tally.transactions <= 6, "\(cold.tally)")
            store.databasePool.unwatch(cold)
            for keyed in [true, false] {
                let watch = store.watchTenant(try Self.tenant(m))
                defer { store.databasePool.unwatch(watch) }
                let reply = try await stack.send(
                    .POST, "/v1/payments", token: m.apiKey, json: Self.body("tx-\(keyed)"),
                    headers: keyed ? ["Idempotency-Key": "tx-key"] : [:])
                #expect(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
                let tally = watch.tally
                // Idempotency start + payment + attempt; outcome + record + idempotency finish.
                #expect(tally.writingTransactions == 2, "keyed: \(keyed), \(tally)")
                // Nothing else: the tenant's configuration comes from memory.
                #expect(tally.transactions == 2, "keyed: \(keyed), \(tally)")
            }
            // The key's response was stored in the create's last transaction: a retry replays it.
            let replay = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: Self.body("tx-true"),
                headers: ["Idempotency-Key": "tx-key"])
            #expect(replay.status == 201)
            #expect(replay.headers.contains { $0.0.lowercased() == "idempotent-replayed" && $0.1 == "true" })
        }
    }

    @Test func aCrashAfterTheFirstCommitLeavesAnAttemptToSyncAndNeverChargesTwice() async throws {
        let clock = TestClock()
        let client = TestStack.antomInstantClients[0]
        // The background janitor looks once at start; this test settles the payment itself.
        try await TestStack.with(providerTimeoutMs: 60_000, policy: { $0.janitor.pollMs = 600_000 }, clock: clock) {
            stack in
            let m = try await stack.merchant(
                name: "Crash Shop", account: try await stack.antomAccountBody(clientId: client),
                match: ["currencies": ["PHP"]])
            let tenant = try Self.tenant(m)
            let store = stack.runtime.store
            // Antom takes the payment but answers only after a long while: the create is stuck in its call.
            await stack.sandbox.antom.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST",
                    pathPrefix: "/ams/sandbox/api/v1/payments/createPaymentSession", merchant: client, count: 1,
                    latencyMs: 4_000),
                SandboxFault(kind: .dropNotification, merchant: client),
            ])
            let watch = store.watchTenant(tenant)
            defer { store.databasePool.unwatch(watch) }
            let body: [String: Any] = [
                "amount": 1000, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "crash-1",
            ]
            let create = Task {
                try await stack.send(
                    .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "crash-key"])
            }
            // What the database holds while the provider has not answered is what a crash would leave.
            var inFlight: PaymentRecord?
            try await Poll.until("the payment stored", within: .seconds(10), every: .milliseconds(20)) {
                inFlight = try await store.payments.records(
                    tenant: tenant, reference: "crash-1", startingAfter: nil, limit: 1
                )
                .first
                return inFlight != nil
            }
            let record = try #require(inFlight, "the payment was never stored")
            #expect(watch.tally.writingTransactions == 1, "\(watch.tally)")
            #expect(record.payment.status == .processing)
            #expect(record.attempts.count == 1)
            #expect(record.attempts.first?.outcome == nil, "the attempt is stored before the call")
            #expect(record.payment.providerAccountId?.uuidString.lowercased() == m.accountId.lowercased())

            // The provider has taken the payment (its answer is what is late): only then is there a charge
            // for the sync to find.
            try await Poll.until("the provider took the payment", within: .seconds(10), every: .milliseconds(20)) {
                await stack.sandbox.antom.ledger(merchant: client).contains { $0.kind == "charge" }
            }
            // Past the provider deadline, the attempt is synced: the charge is found, not made again.
            clock.advance(by: 121)
            let settled = try await stack.runtime.service.resolveStale(tenant: tenant, paymentId: record.payment.id)
            #expect(settled.payment.status == .succeeded, "\(settled.payment.status)")
            #expect(settled.attempts.count == 1)
            // The stuck request ends too (its late answer is no concern here): still one charge.
            _ = try await create.value
            let charges = await stack.sandbox.antom.ledger(merchant: client).filter { $0.kind == "charge" }
            #expect(charges.count == 1)
        }
    }

    @Test func aPageOfPaymentsCostsTheSameQueriesWhateverItsSize() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            for index in 0..<3 { _ = try await stack.createPayment(m, Self.body("page-\(index)")) }
            let store = stack.runtime.store
            var tallies: [PGWatch.Tally] = []
            for limit in [1, 100] {
                let watch = store.watchTenant(try Self.tenant(m))
                let reply = try await stack.send(.GET, "/v1/payments?limit=\(limit)", token: m.apiKey)
                store.databasePool.unwatch(watch)
                #expect(reply.status == 200)
                #expect((reply.json["data"] as? [Any])?.count == min(limit, 3))
                tallies.append(watch.tally)
            }
            #expect(tallies[0] == tallies[1], "\(tallies)")
            #expect(tallies[1].transactions == 1, "\(tallies)")
        }
    }

    @Test func anExhaustedPoolAnswersDatabaseBusyWithRetryAfter() async throws {
        try await TestStack.with(policy: {
            $0.database.poolSize = 1
            $0.server.databaseAcquireTimeoutMs = 300
        }) { stack in
            let m = try await stack.merchant()
            let pool = stack.runtime.store.databasePool
            #expect(pool.size == 1)
            let started = ContinuousClock.now
            // The only connection is held while the request runs.
            let reply = try await pool.withLease { _ in
                try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            }
            #expect(reply.status == 503, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(reply.errorCode == "database_busy")
            #expect(reply.headers.contains { $0.0.lowercased() == "retry-after" && $0.1 == "1" })
            #expect(ContinuousClock.now - started < .seconds(30), "no unbounded wait")
            // Once the connection is free again, the same request is served.
            #expect(try await stack.send(.GET, "/v1/payments", token: m.apiKey).status == 200)
        }
    }
}
