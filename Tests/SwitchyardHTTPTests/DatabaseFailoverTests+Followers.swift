import Foundation
import NIOHTTP1
import SwitchyardTestSupport
import Testing

extension DatabaseFailoverTests {
    /// After the promotion: `switchyard-server migrate` on the same multi-host URL finds the promoted node and
    /// has nothing to do, and each replica's configuration listener has followed it too — an API key revoked
    /// through one replica is refused by the others long before their caches (a minute, in this run's policy)
    /// would have expired, so only a change notification from the new primary explains it.
    func followersFollowThePromotedPrimary(_ platform: ChaosPlatform, ownerURL: String) async throws {
        let migrate = try Self.run(
            BuiltProducts.directory + "/switchyard-server", ["migrate", "--database-url", ownerURL])
        #expect(migrate.status == 0, "migrate on the multi-host URL after the promotion: \(migrate.output)")

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
            while status != 401, ContinuousClock.now - started < .seconds(10) {
                status = try await platform.send(.GET, platform.replicaURL(index) + "/v1/payments", token: secret)
                    .status
                if status != 401 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status == 401, "replica \(index) still accepts a key revoked after the promotion")
            print("failover: replica \(index) saw the revocation after \(ContinuousClock.now - started)")
        }
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
