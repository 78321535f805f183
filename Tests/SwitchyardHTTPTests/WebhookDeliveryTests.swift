import Foundation
import Logging
import SwitchyardApp
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardHTTP
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting
import Testing

/// The dispatcher against a real outbox, without the API in front: fair sharing between tenants and
/// endpoints, and the egress check at delivery time.
@Suite(.serialized)
struct WebhookDeliveryTests {
    /// A migrated store on a fresh database.
    struct Harness {
        let pool: PGPool
        let store: PostgresStore
        let logger: Logger

        static func make() async throws -> Harness {
            var logger = Logger(label: "test")
            logger.logLevel = .warning
            let pool = try PGPool(
                PostgresConfiguration(connectionString: try await TestPostgres.freshDatabase(), poolSize: 4),
                logger: logger)
            let store = PostgresStore(
                pool: pool, secrets: try SecretBox(key: SecureRandom.bytes(32)), clock: { Date() }, logger: logger)
            try await store.migrate()
            return Harness(pool: pool, store: store, logger: logger)
        }

        /// A dispatcher under `configure`d webhook settings; the caller shuts it down.
        func dispatcher(resolver: any HostResolver = SystemHostResolver(), _ configure: (inout PlatformPolicy) -> Void)
            -> WebhookDispatcher
        {
            var platform = PlatformPolicy()
            platform.webhooks.pollMs = 20
            configure(&platform)
            return WebhookDispatcher(
                store: store, policy: PolicyCenter(platform), worker: "test-worker", clock: { Date() }, logger: logger,
                resolver: resolver)
        }

        /// An endpoint stored as is (as if registered under an earlier policy, or a name that resolved
        /// elsewhere at registration).
        func endpoint(_ tenant: UUID, url: String) async throws {
            _ = try await store.webhooks.createWebhookEndpoint(
                tenant: tenant, url: url, description: nil, eventTypes: ["payment.succeeded"], actor: "test",
                maxEnabled: 16)
        }

        /// `count` payments of `tenant` succeed, each writing a `payment.succeeded` event to the outbox.
        func succeed(_ tenant: UUID, count: Int, prefix: String) async throws {
            for index in 0..<count {
                var payment = Payment(
                    id: "pay_\(prefix)\(index)", tenantId: tenant, amount: 100, currency: "EUR", country: "FR",
                    method: "card", reference: "\(prefix)-\(index)", captureMode: .automatic, customerId: nil,
                    returnURL: nil, paymentData: [:], status: .succeeded, createdAt: Date())
                payment.amountCaptured = payment.amount
                try await store.payments.commit(PaymentChanges(payment: payment))
            }
        }

        /// Each attempt's error, by delivery status.
        func attempts() async throws -> [(status: String, error: String?, code: Int?)] {
            try await pool.withConnection { c in
                try await c.query(
                    """
                    SELECT d.status, a.error, a.status_code FROM webhook_attempts a
                    JOIN webhook_deliveries d ON d.id = a.delivery_id ORDER BY a.id
                    """
                ).rows.map {
                    (try $0.string("status"), $0.optionalString("error"), $0.optionalInt64("status_code").map(Int.init))
                }
            }
        }
    }

    /// Answers names from a table and counts the questions.
    final class TableResolver: HostResolver, @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [String: [[String]]]
        private(set) var questions = 0

        /// `answers[host]` are successive answers; the last one repeats.
        init(_ answers: [String: [[String]]]) { self.answers = answers }

        func resolve(_ host: String, timeout: Duration) async throws -> [IPAddress] {
            try lock.withLock {
                questions += 1
                guard var list = answers[host], let first = list.first else { throw CancellationError() }
                if list.count > 1 { list.removeFirst() }
                answers[host] = list
                return first.compactMap(IPAddress.init)
            }
        }
    }

    /// What a healthy tenant saw beside another tenant's silent endpoints.
    struct Neighbourhood {
        /// How long the healthy tenant's five deliveries took to arrive.
        var elapsed: TimeInterval
        /// How many requests the silent endpoints hold unanswered.
        var held: Int
        /// The silent tenant's deliveries still pending.
        var pending: Int64
    }

    /// Runs the dispatcher (four slots, a 30 s timeout) while `holes` endpoints of one tenant accept
    /// requests and never answer; their 10 events' deliveries are older than another tenant's five.
    func besideBlackHoles(holes: Int, _ configure: @escaping (inout PlatformPolicy) -> Void) async throws
        -> Neighbourhood
    {
        let harness = try await Harness.make()
        let slow = try await harness.store.tenants.createTenant(name: "Slow", actor: "test")
        let healthy = try await harness.store.tenants.createTenant(name: "Healthy", actor: "test")
        let seen = try await WebhookReceiver.with { hole in
            hole.hang()
            return try await WebhookReceiver.with { receiver in
                for _ in 0..<holes { try await harness.endpoint(slow.id, url: hole.url) }
                try await harness.endpoint(healthy.id, url: receiver.url)
                try await harness.succeed(slow.id, count: 10, prefix: "slow")
                try await harness.succeed(healthy.id, count: 5, prefix: "ok")
                let dispatcher = harness.dispatcher {
                    $0.webhooks.allowHosts = ["127.0.0.1"]
                    $0.webhooks.batchSize = 4
                    $0.webhooks.timeoutMs = 30_000
                    $0.webhooks.leaseMs = 60_000
                    configure(&$0)
                }
                let running = Task { await dispatcher.run() }
                let seen: Result<Neighbourhood, any Error>
                do {
                    let started = Date()
                    try await receiver.wait(seconds: 10) { $0.count >= 5 }
                    let elapsed = Date().timeIntervalSince(started)
                    try await hole.wait(seconds: 5) { $0.count >= 2 }
                    // What the worker leaves pending is the subject, and leaving is no event: it is given a
                    // moment past the held deliveries to claim more, which it must not.
                    try await Task.sleep(for: .milliseconds(300))
                    let pending = try await harness.pool.withConnection { c in
                        try await c.query(
                            """
                            SELECT count(*) AS n FROM webhook_deliveries
                            WHERE tenant_id = $1::uuid AND status = 'pending'
                            """,
                            [.uuid(slow.id)]
                        ).first?.int64("n") ?? -1
                    }
                    seen = .success(Neighbourhood(elapsed: elapsed, held: hole.deliveries.count, pending: pending))
                } catch {
                    seen = .failure(error)
                }
                running.cancel()
                await running.value
                await dispatcher.shutdown()
                return try seen.get()
            }
        }
        await harness.pool.shutdown()
        return seen
    }

    @Test func aBlackHoleEndpointDoesNotDelayAnotherTenantsWebhooks() async throws {
        let seen = try await besideBlackHoles(holes: 1) { _ in }
        // Well within the black hole's 30 s timeout, while it still holds its deliveries.
        #expect(seen.elapsed < 10, "healthy deliveries took \(seen.elapsed) s")
        #expect(seen.held == 2, "at most two in flight to one endpoint")
        #expect(seen.pending == 10, "the black hole's deliveries are outstanding, not dropped")
        print("webhook fairness: 5 healthy deliveries in \(String(format: "%.2f", seen.elapsed)) s beside a black hole")
    }

    @Test func aTenantWithSeveralBlackHolesHoldsOnlyItsShareOfTheSlots() async throws {
        // Three silent endpoints could hold six deliveries, more than the worker's four slots.
        let seen = try await besideBlackHoles(holes: 3) { $0.webhooks.maxInFlightPerTenant = 2 }
        #expect(seen.elapsed < 10, "healthy deliveries took \(seen.elapsed) s")
        #expect(seen.held == 2, "at most two in flight for one tenant")
        #expect(seen.pending == 30)
    }

    @Test func aStoppingWorkerFinishesTheDeliveryUnderWayAndClaimsNoMore() async throws {
        let harness = try await Harness.make()
        let tenant = try await harness.store.tenants.createTenant(name: "Draining", actor: "test")
        try await WebhookReceiver.with { receiver in
            receiver.answer(after: .milliseconds(1500))
            try await harness.endpoint(tenant.id, url: receiver.url)
            try await harness.succeed(tenant.id, count: 1, prefix: "first")
            let dispatcher = harness.dispatcher {
                $0.webhooks.allowHosts = ["127.0.0.1"]
                $0.webhooks.requireHTTPS = false
            }
            let stopping = LockedState(false)
            // Set when the worker reads the flag as true: from then on it claims nothing.
            let readStop = LockedState(false)
            let changes = Changes()
            let running = Task {
                await dispatcher.run(stopping: {
                    let stop = stopping.withLock { $0 }
                    if stop {
                        readStop.withLock { $0 = true }
                        changes.notify()
                    }
                    return stop
                })
            }
            try await receiver.wait(seconds: 10) { $0.count == 1 }
            // The delivery is under way (its answer comes in 1.5 s): the worker is told to stop, and an
            // event that becomes due now is left for the next worker.
            stopping.withLock { $0 = true }
            // The worker has read the flag (at its next poll) before the second event exists.
            try await changes.wait("the worker reading the stop", within: .seconds(10)) { readStop.withLock { $0 } }
            try await harness.succeed(tenant.id, count: 1, prefix: "second")
            // A bound, so a worker that never returns fails the test instead of hanging it.
            do {
                try await Deadline.within(.seconds(20), "the stopping worker's return") { await running.value }
            } catch {
                running.cancel()
                throw error
            }
            #expect(try await harness.attempts().map { $0.status } == ["succeeded"], "finished, not cut short")
            #expect(try await harness.attempts().map { $0.code } == [200])
            let pending = try await harness.pool.withConnection { c in
                try await c.query(
                    "SELECT count(*) AS n FROM webhook_deliveries WHERE tenant_id = $1::uuid AND status = 'pending'",
                    [.uuid(tenant.id)]
                ).first?.int64("n") ?? -1
            }
            #expect(pending == 1, "the second event is not claimed by a stopping worker")
            #expect(receiver.deliveries.count == 1)
            await dispatcher.shutdown()
        }
        await harness.pool.shutdown()
    }

    @Test func aDeliveryConnectsToTheAddressThatWasChecked() async throws {
        let harness = try await Harness.make()
        let tenant = try await harness.store.tenants.createTenant(name: "Pinned", actor: "test")
        try await WebhookReceiver.with { receiver in
            let port = try #require(URL(string: receiver.url)?.port)
            // The name exists only for this resolver: the system's would not find it. Its first answer is
            // checked (a trusted address); a second answer would be private.
            let resolver = TableResolver(["hooks.pinned.test": [["127.0.0.1"], ["10.0.0.9"]]])
            try await harness.endpoint(tenant.id, url: "http://hooks.pinned.test:\(port)/hook")
            try await harness.succeed(tenant.id, count: 1, prefix: "pin")
            let dispatcher = harness.dispatcher(resolver: resolver) {
                $0.webhooks.allowHosts = ["127.0.0.1"]
                $0.webhooks.requireHTTPS = false
            }
            #expect(await dispatcher.runOnce() == 1)
            let received = try await receiver.wait(seconds: 5) { $0.count == 1 }
            #expect(received[0].headers["host"] == "hooks.pinned.test:\(port)", "the name stays in Host")
            #expect(resolver.questions == 1, "resolved once, then connected to that answer")
            #expect(try await harness.attempts().map { $0.code } == [200])
            await dispatcher.shutdown()
        }
        await harness.pool.shutdown()
    }

    @Test func aForbiddenAddressIsNeverContactedAndIsRecordedCoarsely() async throws {
        let harness = try await Harness.make()
        let tenant = try await harness.store.tenants.createTenant(name: "Prober", actor: "test")
        try await WebhookReceiver.with { receiver in
            let port = try #require(URL(string: receiver.url)?.port)
            // A loopback literal registered under a looser policy, and a name that now resolves to loopback.
            let resolver = TableResolver(["rebound.test": [["127.0.0.1"]]])
            try await harness.endpoint(tenant.id, url: receiver.url)
            try await harness.endpoint(tenant.id, url: "http://rebound.test:\(port)/hook")
            try await harness.succeed(tenant.id, count: 1, prefix: "probe")
            let dispatcher = harness.dispatcher(resolver: resolver) { $0.webhooks.requireHTTPS = false }
            // The run ends once both attempts are recorded, so nothing of them can reach the receiver later.
            #expect(await dispatcher.runOnce() == 2)
            #expect(receiver.deliveries.isEmpty, "nothing was sent to loopback")
            let attempts = try await harness.attempts()
            #expect(attempts.count == 2)
            #expect(attempts.allSatisfy { $0.error == "address_forbidden" && $0.code == nil && $0.status == "pending" })
            await dispatcher.shutdown()
        }
        await harness.pool.shutdown()
    }
}
