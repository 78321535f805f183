import Foundation
import PluginHost
import SwitchyardTestSupport
import TestWaiting
import Testing

/// Hostile plugin files next to the real ones: each is refused with a stable code, none of their code
/// runs in the server, the real plugins keep serving and the server keeps answering.
@Suite(.serialized)
struct PluginRefusalEndToEndTests {
    static func probe(_ defines: [String]) throws -> String {
        try FixturePlugins.build("probe_plugin.c", defines: defines)
    }

    /// An echo fixture that declares Citcon's id.
    static func impostor() throws -> String {
        try FixturePlugins.echo(["FIXTURE_ID=\"citcon\"", "FIXTURE_VERSION=\"6.6.6\""])
    }

    static func plugins(_ stack: TestStack) async throws -> (loaded: [[String: Any]], refused: [String: String]) {
        let json = try await stack.send(.GET, "/admin/v1/plugins", token: stack.operatorToken).json
        let loaded = json["loaded"] as? [[String: Any]] ?? []
        var refused: [String: String] = [:]
        for entry in json["refused"] as? [[String: Any]] ?? [] {
            let file = URL(fileURLWithPath: entry["file"] as? String ?? "").lastPathComponent
            refused[file] = entry["code"] as? String
        }
        return (loaded, refused)
    }

    /// `/health` answers, and within a generous bound (the machine running the suite may be loaded: the
    /// bound says the server is not held up by a scan, well below the 5 s scan deadline).
    static func expectHealthy(_ stack: TestStack) async throws {
        let started = ContinuousClock.now
        #expect(try await stack.send(.GET, "/health").status == 200)
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    /// The real Citcon plugin serves: a payment gets the sandbox's pending charge.
    static func expectCitconServes(_ stack: TestStack, reference: String) async throws {
        let m = try await stack.merchant(name: "Shop \(reference)")
        let payment = try await stack.createPayment(
            m, ["amount": 100, "currency": "USD", "country": "US", "method": "alipay", "reference": reference])
        #expect(payment["status"] as? String == "requires_action")
        let data = (payment["next_action"] as? [String: Any])?["data"] as? [String: Any]
        #expect(data?["charge_token"] is String)
    }

    @Test func hostileFilesPresentAtStartAreRefusedBeforeAnyOfTheirCodeRunsInTheServer() async throws {
        let marker = NSTemporaryDirectory() + "/switchyard-marker-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let citcon = try TestStack.citconPluginPath()
        // The operator's policy: the bundled ids, Citcon pinned to its real build.
        let digest = try FixturePlugins.sha256(of: citcon)
        var policy = PluginPolicy.builtInDevelopment(allowing: TestStack.bundledPluginIDs)
        policy.allowed = policy.allowed.map {
            $0.id == "citcon" ? PluginPolicy.Entry(id: "citcon", sha256: [digest]) : $0
        }
        let extras: [(name: String, path: String)] = [
            ("aaa.so", try Self.impostor()),
            ("aab-crash.so", try Self.probe(["FIXTURE_CRASH_IN_ENTRY"])),
            ("aac-sneaky.so", try Self.probe(["FIXTURE_ID=\"sneaky\"", "FIXTURE_MARKER_FILE=\"\(marker)\""])),
        ]
        try await TestStack.with(pluginPolicy: policy, extraPlugins: extras) { stack in
            let (loaded, refused) = try await Self.plugins(stack)
            #expect(refused["aaa.so"] == "digest_mismatch")
            #expect(refused["aab-crash.so"] == "scan_crashed")
            #expect(refused["aac-sneaky.so"] == "not_allowed")
            #expect(Set(loaded.compactMap { $0["id"] as? String }) == Set(TestStack.bundledPluginIDs))
            let served = loaded.first { $0["id"] as? String == "citcon" }
            #expect((served?["file"] as? String)?.hasSuffix("libCitconPlugin.so") == true)
            #expect(served?["version"] as? String != "6.6.6")
            #expect(!FileManager.default.fileExists(atPath: marker), "a refused plugin's constructor wrote a file")
            try await Self.expectHealthy(stack)
            try await Self.expectCitconServes(stack, reference: "start")
        }
    }

    @Test func hostileFilesDroppedWhileServingAreRefusedAndTheServerKeepsAnswering() async throws {
        try await TestStack.with { stack in
            #expect(try await Self.plugins(stack).refused.isEmpty)
            try FixturePlugins.install(
                try Self.probe(["FIXTURE_CRASH_IN_ENTRY"]), in: stack.pluginsDirectory, as: "0-crash.so")
            try FixturePlugins.install(try Self.impostor(), in: stack.pluginsDirectory, as: "0-citcon.so")
            var refused: [String: String] = [:]
            try await Poll.until("both files refused", within: .seconds(10), every: .milliseconds(100)) {
                try await Self.expectHealthy(stack)
                refused = try await Self.plugins(stack).refused
                return refused.count >= 2
            }
            #expect(refused["0-crash.so"] == "scan_crashed")
            // The file serving Citcon keeps its id, whatever the newcomer's name.
            #expect(refused["0-citcon.so"] == "duplicate_id")
            let citcon = try await Self.plugins(stack).loaded.first { $0["id"] as? String == "citcon" }
            #expect((citcon?["file"] as? String)?.hasSuffix("libCitconPlugin.so") == true)
            try await Self.expectCitconServes(stack, reference: "hot")
        }
    }
}
