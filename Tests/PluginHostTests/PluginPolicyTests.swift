import Foundation
import PluginHost
import Testing

@Suite("PluginPolicy")
struct PluginPolicyTests {
    private let digest = String(repeating: "0f", count: 32)

    @Test func pinnedNeedsIDAndDigest() {
        let policy = PluginPolicy(mode: .pinned, allowed: [.init(id: "citcon", sha256: [digest])])
        #expect(policy.evaluate(id: "citcon", sha256: digest) == .allowed)
        #expect(policy.evaluate(id: "citcon", sha256: digest.uppercased()) == .allowed)
        #expect(policy.evaluate(id: "citcon", sha256: String(repeating: "1", count: 64)) == .digestNotListed)
        #expect(policy.evaluate(id: "antom", sha256: digest) == .idNotAllowed)
        #expect(policy.mayOpen(sha256: digest))
        #expect(!policy.mayOpen(sha256: String(repeating: "1", count: 64)))
    }

    @Test func pinnedWithNothingAllowedLoadsNothing() {
        #expect(PluginPolicy.denyAll.evaluate(id: "citcon", sha256: digest) == .idNotAllowed)
        #expect(!PluginPolicy.denyAll.mayOpen(sha256: digest))
    }

    @Test func developmentIgnoresDigests() {
        let open = PluginPolicy(mode: .development)
        #expect(open.evaluate(id: "anything", sha256: "x") == .allowed)
        let listed = PluginPolicy(mode: .development, allowed: [.init(id: "citcon")])
        #expect(listed.evaluate(id: "citcon", sha256: "x") == .allowed)
        #expect(listed.evaluate(id: "antom", sha256: "x") == .idNotAllowed)
        #expect(listed.mayOpen(sha256: "x"))
    }

    @Test func policyFileDecodesLenientlyAndIgnoresOtherSections() throws {
        let json = """
            {
              "failover": { "maxAttempts": 3 },
              "plugins": { "mode": "pinned", "allowed": [ { "id": "citcon", "sha256": ["\(digest)"] }, { "id": "dev" } ],
                           "futureKey": true },
              "webhooks": { "retries": [1, 5, 30] }
            }
            """
        let file = try PolicyFile.decode(Data(json.utf8))
        #expect(file.plugins.mode == .pinned)
        #expect(file.plugins.allowed == [.init(id: "citcon", sha256: [digest]), .init(id: "dev", sha256: [])])
    }

    @Test func missingPluginsSectionDeniesAll() throws {
        let file = try PolicyFile.decode(Data(#"{"failover":{}}"#.utf8))
        #expect(file.plugins == .denyAll)
    }

    @Test func unknownModeIsAnError() {
        #expect(throws: DecodingError.self) {
            _ = try PolicyFile.decode(Data(#"{"plugins":{"mode":"anything-goes"}}"#.utf8))
        }
    }
}
