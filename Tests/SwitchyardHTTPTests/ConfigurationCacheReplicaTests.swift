import Foundation
import Hummingbird
import SwitchyardApp
import SwitchyardCluster
import SwitchyardCore
import SwitchyardHTTP
import SwitchyardStore
import TestWaiting
import Testing

/// Two replicas (each a runtime with its own pool, caches, change listener and HTTP server) on one
/// database: configuration each keeps in memory follows the other's writes within a second.
@Suite(.serialized)
struct ConfigurationCacheReplicaTests {
    /// A cache lifetime far past the one-second bound, so only the change notifications can explain
    /// a replica noticing a write in time.
    static let longLifetime: @Sendable (inout PlatformPolicy) -> Void = { $0.caching.ttlMs = 60_000 }
    /// How long a change may take to reach the other replica: a sixth of the caches' lifetime, so a change
    /// seen within it came through the database's notice, never an expiry. It bounds a hang, not the speed
    /// (each test prints the time it measured).
    static let noticeBound = Duration.seconds(10)

    /// Runs `body` with a second replica of `stack` (same database, plugins and encryption key) serving
    /// HTTP at the base URL passed to `body`.
    static func withSecondReplica(
        _ stack: TestStack, _ body: @Sendable (SwitchyardRuntime, String) async throws -> Void
    ) async throws {
        let runtime = try await SwitchyardRuntime(stack.runtime.configuration)
        let port = PostgresCluster.freePort()
        let result: Result<Void, any Error> = await withThrowingTaskGroup(of: Void.self) { group in
            let (ports, continuation) = AsyncStream<Int>.makeStream()
            let app = SwitchyardServer.application(runtime.dependencies, host: "127.0.0.1", port: port) {
                continuation.yield($0)
            }
            let server = ServerStop(app)
            group.addTask {
                defer { continuation.finish() }
                try await server.run()
            }
            var iterator = ports.makeAsyncIterator()
            let result: Result<Void, any Error>
            if let port = await iterator.next() {
                do {
                    try await body(runtime, "http://127.0.0.1:\(port)")
                    result = .success(())
                } catch {
                    result = .failure(error)
                }
            } else {
                result = .failure(TestFailure("the second replica did not start"))
            }
            await server.stop()
            group.cancelAll()
            return result
        }
        await runtime.shutdown()
        try result.get()
    }

    static func paymentBody() -> [String: Any] {
        [
            "amount": 1000, "currency": "USD", "country": "US", "method": "alipay",
            "reference": "order-\(UUID().uuidString.prefix(8))",
        ]
    }

    /// The account of a created payment's last attempt.
    static func account(_ reply: TestStack.Reply) -> String? {
        (reply.json["attempts"] as? [[String: Any]])?.last?["provider_account"] as? String
    }

    @Test func aRoutingChangeOnOneReplicaReachesTheOthersPaymentsBeforeItsCacheExpires() async throws {
        try await TestStack.with(policy: Self.longLifetime) { stack in
            let m = try await stack.merchant()
            let second = try await stack.addAccount(
                tenantId: m.tenantId,
                [
                    "plugin": "citcon", "base_url": stack.sandboxURL + "/citcon", "environment": "sandbox",
                    "name": "second",
                    "credentials": [
                        "private_key": TestStack.citconMerchant.privateKey,
                        "ipn_secret": TestStack.citconMerchant.ipnSecret,
                    ],
                ])
            try await Self.withSecondReplica(stack) { replica, replicaURL in
                // Replica B routes to the first account, from memory after its first payment.
                for _ in 0..<2 {
                    let reply = try await stack.send(
                        .POST, "/v1/payments", token: m.apiKey, json: Self.paymentBody(), base: replicaURL)
                    try #require(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
                    #expect(Self.account(reply) == m.accountId)
                }
                #expect(replica.configurationCache.statistics.hits > 0, "replica B serves routing from memory")

                // Replica A changes the routing.
                let changed = try await stack.send(
                    .PUT, "/admin/v1/tenants/\(m.tenantId)/routing", token: stack.operatorToken,
                    json: [
                        "rules": [["name": "second", "match": ["countries": ["US"]], "accounts": [second]]]
                    ])
                try #require(changed.status == 200, "\(String(decoding: changed.body, as: UTF8.self))")
                let started = ContinuousClock.now

                // B's payments reach the new account through the database's change notice: long before its
                // cached routing's 60 s lifetime ends (the bound guards against a hang; the time is printed,
                // typically milliseconds).
                var routedTo: String?
                while routedTo != second, ContinuousClock.now - started < Self.noticeBound {
                    let reply = try await stack.send(
                        .POST, "/v1/payments", token: m.apiKey, json: Self.paymentBody(), base: replicaURL)
                    try #require(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
                    routedTo = Self.account(reply)
                }
                let elapsed = ContinuousClock.now - started
                #expect(routedTo == second, "replica B still routes to the old account after \(elapsed)")
                print("routing change seen by the other replica after \(elapsed)")
            }
        }
    }

    @Test func aKeyRevokedOnOneReplicaIsRefusedAtOnceThereAndBeforeTheOthersCacheExpires() async throws {
        try await TestStack.with(policy: Self.longLifetime) { stack in
            let m = try await stack.merchant()
            let keys = try await stack.send(
                .GET, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: stack.operatorToken)
            let keyId = try #require((keys.json["data"] as? [[String: Any]])?.first?["id"] as? String)
            try await Self.withSecondReplica(stack) { replica, replicaURL in
                for base in [stack.baseURL, replicaURL, stack.baseURL, replicaURL] {
                    let reply = try await stack.send(.GET, "/v1/payments", token: m.apiKey, base: base)
                    #expect(reply.status == 200)
                }
                #expect(replica.store.apiKeyCacheStatistics.hits > 0, "replica B serves the key from memory")
                #expect(stack.runtime.store.apiKeyCacheStatistics.hits > 0, "replica A serves the key from memory")

                let revoked = try await stack.send(
                    .DELETE, "/admin/v1/tenants/\(m.tenantId)/api-keys/\(keyId)", token: stack.operatorToken)
                try #require(revoked.status == 204)
                let started = ContinuousClock.now

                // At once on the replica that revoked it.
                let onA = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
                #expect(onA.status == 401)
                #expect(onA.errorCode == "invalid_api_key")

                // On the other through the change notice, long before its cached key's lifetime ends.
                var status = 200
                try await Poll.holds(
                    "401 on replica B", within: Self.noticeBound - (ContinuousClock.now - started),
                    every: .milliseconds(20)
                ) {
                    status = try await stack.send(.GET, "/v1/payments", token: m.apiKey, base: replicaURL).status
                    return status == 401
                }
                let elapsed = ContinuousClock.now - started
                #expect(status == 401, "replica B still accepts the revoked key after \(elapsed)")
                print("revocation seen by the other replica after \(elapsed)")
            }
        }
    }

    @Test func aRevokedOperatorIsRefusedByTheOtherReplicaBeforeItsCacheExpires() async throws {
        try await TestStack.with(policy: Self.longLifetime) { stack in
            let (id, token) = try await OperatorAccessTests.add(stack, "Rita", "viewer")
            try await Self.withSecondReplica(stack) { _, replicaURL in
                // Replica B knows the token, from memory after its first use.
                for _ in 0..<3 {
                    #expect(try await stack.send(.GET, "/admin/v1/me", token: token, base: replicaURL).status == 200)
                }
                let revoked = try await stack.send(.DELETE, "/admin/v1/operators/\(id)", token: stack.operatorToken)
                try #require(revoked.status == 200)
                let started = ContinuousClock.now
                #expect(try await stack.send(.GET, "/admin/v1/me", token: token).status == 401)
                var status = 200
                try await Poll.holds(
                    "401 on replica B", within: Self.noticeBound - (ContinuousClock.now - started),
                    every: .milliseconds(20)
                ) {
                    status = try await stack.send(.GET, "/admin/v1/me", token: token, base: replicaURL).status
                    return status == 401
                }
                let elapsed = ContinuousClock.now - started
                #expect(status == 401, "replica B still accepts the revoked operator after \(elapsed)")
                print("operator revocation seen by the other replica after \(elapsed)")
            }
        }
    }
}
