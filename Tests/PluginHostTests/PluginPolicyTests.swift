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

    @Test func developmentChecksDigestsOnlyForIDsThatListSome() {
        let listed = PluginPolicy(
            mode: .development, allowed: [.init(id: "citcon"), .init(id: "antom", sha256: [digest])])
        #expect(listed.evaluate(id: "citcon", sha256: "x") == .allowed)
        #expect(listed.evaluate(id: "echo", sha256: "x") == .idNotAllowed)
        #expect(listed.mayOpen(sha256: "x"))
        // An id pinned to a digest refuses another file in development mode too.
        #expect(listed.evaluate(id: "antom", sha256: digest.uppercased()) == .allowed)
        #expect(listed.evaluate(id: "antom", sha256: String(repeating: "1", count: 64)) == .digestNotListed)
        #expect(listed.pinnedDigests(for: "antom") == [digest])
        #expect(listed.pinnedDigests(for: "citcon").isEmpty)
    }

    @Test func developmentWithoutAnAllowListAllowsNothing() throws {
        #expect(PluginPolicy(mode: .development).evaluate(id: "anything", sha256: "x") == .idNotAllowed)
        let file = try PolicyFile.decode(Data(#"{"plugins":{"mode":"development"}}"#.utf8))
        #expect(file.plugins.evaluate(id: "citcon", sha256: "x") == .idNotAllowed)
        let empty = try PolicyFile.decode(Data(#"{"plugins":{"mode":"development","allowed":[]}}"#.utf8))
        #expect(empty.plugins.evaluate(id: "citcon", sha256: "x") == .idNotAllowed)
    }

    @Test func allowingEveryIDIsExplicitAndForDevelopmentOnly() throws {
        let file = try PolicyFile.decode(Data(#"{"plugins":{"mode":"development","allowed":"*"}}"#.utf8))
        #expect(file.plugins.allowsAnyID)
        #expect(file.plugins.evaluate(id: "anything", sha256: "x") == .allowed)
        let encoded = try JSONEncoder().encode(file.plugins)
        #expect(try JSONDecoder().decode(PluginPolicy.self, from: encoded) == file.plugins)
        #expect(throws: DecodingError.self) {
            _ = try PolicyFile.decode(Data(#"{"plugins":{"mode":"pinned","allowed":"*"}}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            _ = try PolicyFile.decode(Data(#"{"plugins":{"mode":"development","allowed":"all"}}"#.utf8))
        }
        #expect(!PluginPolicy(mode: .pinned, allowsAnyID: true).allowsAnyID)
    }

    @Test func builtInDevelopmentPolicyAllowsTheBundledIDsOnly() {
        let policy = PluginPolicy.builtInDevelopment(allowing: [
            "citcon", "worldline-direct", "antom", "worldline-sips",
        ])
        #expect(policy.mode == .development)
        #expect(!policy.allowsAnyID)
        for id in ["citcon", "worldline-direct", "antom", "worldline-sips"] {
            #expect(policy.evaluate(id: id, sha256: "x") == .allowed)
        }
        #expect(policy.evaluate(id: "echo", sha256: "x") == .idNotAllowed)
        #expect(policy.evaluate(id: "anything", sha256: "x") == .idNotAllowed)
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
