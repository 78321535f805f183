import Foundation
import NIOHTTP1
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting
import Testing

extension DatabaseFailoverTests {
    /// After the promotion: `switchyard-server migrate` on the same multi-host URL finds the promoted node and
    /// has nothing to do, and each replica's configuration listener has followed it too — every replica
    /// listens on the promoted node (seen there, through `adminURL`, in `pg_stat_activity`), so their caches
    /// serve again, and an API key revoked through one replica is refused by the others long before their
    /// caches (a minute, in this run's policy) would have expired: only a change notification from the new
    /// primary explains it.
    func followersFollowThePromotedPrimary(_ platform: ChaosPlatform, ownerURL: String, adminURL: String)
        async throws
    {
        let migrate = try Self.run(
            BuiltProducts.directory + "/switchyard-server", ["migrate", "--database-url", ownerURL])
        #expect(migrate.status == 0, "migrate on the multi-host URL after the promotion: \(migrate.output)")
        let listening = try await Self.listeners(on: adminURL, atLeast: platform.ports.count)
        #expect(listening == platform.ports.count, "replicas listening on the promoted node: \(listening)")

        let tenant = try await platform.admin(
            .POST, "/admin/v1/tenants", json: ["name": "After failover"], expected: 201)
        let tenantId = try #require(tenant["id"] as? String)
        let key = try await platform.admin(
            .POST, "/admin/v1/tenants/\(tenantId)/api-keys", json: ["name": "k", "scopes": ["payments"]], expected: 201)
        let secret = try #require(key["secret"] as? String)
        let keyId = try #require(key["id"] as? String)
        // Every replica has the key in memory.
        for index in platform.ports.indices {
            let reply = try await platform.send(.GET, platform.replicaURL(index) + "/v1/payments", token: secret)
            #expect(reply.status == 200, "replica \(index) before the revocation: \(reply.status)")
        }
        let revoked = try await platform.send(
            .DELETE, platform.replicaURL(0) + "/admin/v1/tenants/\(tenantId)/api-keys/\(keyId)",
            token: platform.operatorToken)
        try #require(revoked.status == 204)
        let started = ContinuousClock.now
        for index in platform.ports.indices.dropFirst() {
            var status = 200
            try await Poll.holds("401 on replica \(index)", within: .seconds(10) - (ContinuousClock.now - started)) {
                status = try await platform.send(.GET, platform.replicaURL(index) + "/v1/payments", token: secret)
                    .status
                return status == 401
            }
            #expect(status == 401, "replica \(index) still accepts a key revoked after the promotion")
            print("failover: replica \(index) saw the revocation after \(ContinuousClock.now - started)")
        }
    }

    /// The sessions listening for configuration changes on the node `adminURL` (a superuser's) reaches,
    /// polled for up to 15 s until there are `count`.
    static func listeners(on adminURL: String, atLeast count: Int) async throws -> Int {
        var listening = 0
        // The database tells no one when a session starts listening: asked again until enough do.
        try await Poll.holds("\(count) listeners", within: .seconds(15), every: .milliseconds(200)) {
            listening = try await PGPool.scoped(connectionString: adminURL, logger: logger) { pool in
                try await pool.withConnection { connection in
                    try await connection.query(
                        "SELECT count(*) AS n FROM pg_stat_activity WHERE query = $1",
                        [.text("LISTEN \(ConfigurationListener.channel)")]
                    ).first.map { Int(try $0.int64("n")) } ?? 0
                }
            }
            return listening >= count
        }
        return listening
    }

    /// Runs `executable` with `arguments` to its end; its exit status and its output (both streams).
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
