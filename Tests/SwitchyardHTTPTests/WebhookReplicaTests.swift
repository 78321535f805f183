import AsyncHTTPClient
import Foundation
import Logging
import SwitchyardCluster
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting
import Testing

/// Several `switchyard serve` processes on one database share the outbox: every event is delivered,
/// and none twice while its endpoint answers 2xx.
@Suite(.serialized)
struct WebhookReplicaTests {
    /// A running `switchyard serve` process.
    final class Replica: Sendable {
        let server: ServeProcess
        let port: Int
        var process: Process { server.process }
        var log: String { server.log }

        init(databaseURL: String, kek: String, policyPath: String, directory: String) throws {
            port = PostgresCluster.freePort()
            server = try ServeProcess(
                arguments: [
                    "--database-url", databaseURL, "--port", "\(port)", "--plugins-dir", directory + "/plugins",
                    "--policy", policyPath, "--data-dir", directory, "--allow-development-plugins",
                ],
                directory: directory, logName: "replica-\(port).log",
                environment: [
                    "SWITCHYARD_KEK": kek, "SWITCHYARD_OPERATOR_TOKEN": "op_" + SecureRandom.token(bytes: 32),
                    "LOG_LEVEL": "warning",
                ])
        }

        func stop() { server.stopNow() }
    }

    @Test func threeServersDeliverAThousandEventsEachExactlyOnce() async throws {
        let databaseURL = try await TestPostgres.freshSwitchyardDatabase().appURL
        let key = SecureRandom.bytes(32)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let pool = try PGPool(PostgresConfiguration(connectionString: databaseURL, poolSize: 4), logger: logger)
        let store = PostgresStore(pool: pool, secrets: try SecretBox(key: key), clock: { Date() }, logger: logger)
        try await store.migrate()
        let tenant = try await store.tenants.createTenant(name: "Replicas", actor: "test")
        let directory = NSTemporaryDirectory() + "switchyard-replicas-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/plugins", withIntermediateDirectories: true)
        let policyPath = directory + "/policy.json"
        // One endpoint receives everything: allow it more than the default two deliveries in flight, or
        // the run measures the per-endpoint limit rather than the sharing between replicas.
        let policy =
            #"{"plugins":{"mode":"development"},"webhooks":{"require_https":false,"allow_hosts":["127.0.0.1"],"#
            + #""max_in_flight_per_endpoint":10,"poll_ms":20,"batch_size":10}}"#
        try Data(policy.utf8).write(to: URL(fileURLWithPath: policyPath))

        try await WebhookReceiver.with { receiver in
            let (_, secret) = try await store.webhooks.createWebhookEndpoint(
                tenant: tenant.id, url: receiver.url, description: "replicas", eventTypes: ["payment.succeeded"],
                actor: "test", maxEnabled: 16)
            let replicas = try (0..<3).map { _ in
                try Replica(
                    databaseURL: databaseURL, kek: Data(key).base64EncodedString(), policyPath: policyPath,
                    directory: directory)
            }
            defer { for replica in replicas { replica.stop() } }
            try await waitUntilServing(replicas)

            // 1000 payments reach `succeeded`; each commit writes its event and delivery (the outbox).
            let started = Date()
            for index in 0..<1000 {
                var payment = Payment(
                    id: "pay_replica\(index)", tenantId: tenant.id, amount: Int64(100 + index), currency: "EUR",
                    country: "FR", method: "card", reference: "order-\(index)", captureMode: .automatic,
                    customerId: nil, returnURL: nil, paymentData: [:], status: .succeeded, createdAt: Date())
                payment.amountCaptured = payment.amount
                try await store.payments.commit(PaymentChanges(payment: payment))
            }
            let written = Date().timeIntervalSince(started)
            let received = try await receiver.wait(seconds: 120) { Set($0.map(\.eventId)).count >= 1000 }
            let elapsed = Date().timeIntervalSince(started)
            // Absence is the subject: a duplicate delivery has no event before it arrives, so the receiver
            // is given a second more to show one.
            try await Task.sleep(for: .seconds(1))
            let all = receiver.deliveries
            #expect(received.count >= 1000)
            #expect(all.count == 1000, "every event exactly once; got \(all.count) deliveries")
            #expect(Set(all.map(\.eventId)).count == 1000)
            let payments = Set(
                all.compactMap { ($0.json["data"] as? [String: Any])?["object"] as? [String: Any] }
                    .compactMap { $0["id"] as? String })
            #expect(payments == Set((0..<1000).map { "pay_replica\($0)" }))
            #expect(all.allSatisfy { $0.verifies(secret: secret) })

            let workers = try await pool.withConnection { c in
                try await c.query("SELECT worker, count(*) AS n FROM webhook_attempts GROUP BY worker").rows.map {
                    (try $0.string("worker"), try $0.int64("n"))
                }
            }
            let pending = try await pool.withConnection { c in
                try await c.query("SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'succeeded'").first?
                    .int64("n") ?? -1
            }
            #expect(pending == 0)
            #expect(workers.map(\.1).reduce(0, +) == 1000)
            #expect(workers.count >= 2, "the work was shared: \(workers)")
            print(
                "webhook replicas: 1000 events in \(String(format: "%.1f", elapsed)) s "
                    + "(written in \(String(format: "%.1f", written)) s), per worker \(workers.map(\.1))")
        }
        await pool.shutdown()
    }

    /// Waits until every replica answers `/health`.
    func waitUntilServing(_ replicas: [Replica]) async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await waitUntilServing(replicas, client: client)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func waitUntilServing(_ replicas: [Replica], client: HTTPClient) async throws {
        for replica in replicas {
            // Another process's readiness, read over HTTP: asked again until it answers or exits.
            let serving = try await Poll.holds(
                "replica \(replica.port) serving", within: .seconds(60), every: .milliseconds(100)
            ) {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(replica.port)/health")
                request.method = .GET
                if let response = try? await client.execute(request, timeout: .seconds(2)), response.status == .ok {
                    return true
                }
                // An exited replica will not start: stop asking, and report its log below.
                return !replica.process.isRunning
            }
            if !serving || !replica.process.isRunning {
                let log = (try? String(contentsOfFile: replica.log, encoding: .utf8)) ?? ""
                throw TestFailure("replica on \(replica.port) did not start: \(log.suffix(2000))")
            }
        }
    }
}
