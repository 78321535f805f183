import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard plugins check` run as a plugin author runs it: the bundled plugins and the C example pass,
/// with and without their scenarios; a plugin that breaks the contract fails with each fault named; bad
/// input is refused with a clear message.
@Suite("plugins check", .serialized)
struct PluginCheckCommandTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String

        var report: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any] ?? [:]
        }

        var checks: [(name: String, verdict: String, detail: String)] {
            (report["checks"] as? [[String: Any]] ?? []).map {
                ($0["name"] as? String ?? "", $0["verdict"] as? String ?? "", $0["detail"] as? String ?? "")
            }
        }

        func verdict(_ name: String) -> String? { checks.first { $0.name == name }?.verdict }
    }

    /// Runs the built `switchyard` with `arguments` and waits for it to exit (its output goes to files, so
    /// no pipe can fill up).
    static func switchyard(_ arguments: [String]) throws -> Run {
        let base = NSTemporaryDirectory() + "/switchyard-run-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: base + ".out")
            try? FileManager.default.removeItem(atPath: base + ".err")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.switchyard)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".err"))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let read = { (path: String) in
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        return Run(status: process.terminationStatus, output: read(base + ".out"), errors: read(base + ".err"))
    }

    static let repository = FixturePlugins.repositoryRoot.path

    @Test(arguments: ["Citcon", "WorldlineDirect", "Antom", "WorldlineSips"])
    func aBundledPluginIsCertifiedWithItsScenarioAndWithout(_ provider: String) throws {
        let file = BuiltProducts.directory + "/lib\(provider)Plugin.so"
        let scenario = Self.repository + "/Plugins/\(provider)/scenario.json"
        let scripted = try Self.switchyard(["plugins", "check", file, "--scenario", scenario, "--json"])
        #expect(scripted.status == 0, "\(scripted.output)\(scripted.errors)")
        #expect(scripted.report["passed"] as? Bool == true)
        let failed = scripted.checks.filter { $0.verdict == "fail" }
        #expect(failed.isEmpty, "\(failed)")
        // With its scenario every flow's own script ran, and so did the notification checks.
        #expect(scripted.checks.contains { $0.name == "authorize: scenario" && $0.verdict == "pass" })
        #expect(scripted.checks.contains { $0.name == "notification: genuine accepted" && $0.verdict == "pass" })
        #expect(scripted.checks.contains { $0.name == "notification: altered body refused" && $0.verdict == "pass" })
        let bare = try Self.switchyard(["plugins", "check", file])
        #expect(bare.status == 0, "\(bare.output)\(bare.errors)")
        #expect(bare.output.contains("certified ("), "\(bare.output)")
    }

    @Test func theCExampleIsCertified() throws {
        let file = try FixturePlugins.build("c_echo.c", in: "Plugins/Examples/c-echo")
        let run = try Self.switchyard([
            "plugins", "check", file, "--scenario", Self.repository + "/Plugins/Examples/c-echo/scenario.json",
            "--json",
        ])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.verdict("authorize: 503 → unknown") == "pass")
        #expect(run.verdict("authorize: cancel honoured") == "pass")
    }

    @Test func aBrokenPluginFailsWithEachFaultNamed() throws {
        let file = try FixturePlugins.build("broken_plugin.c")
        let run = try Self.switchyard(["plugins", "check", file, "--json"])
        #expect(run.status == 1, "\(run.output)\(run.errors)")
        #expect(run.report["passed"] as? Bool == false)
        for fault in [
            "authorize: unreachable provider → notSent", "authorize: reset after sending → unknown",
            "authorize: 503 → unknown", "authorize: unreadable body → unknown", "authorize: cancel honoured",
            "notification: forged refused", "every call completed exactly once", "secrets stay secret",
            "requests stay at the account's base URL", "Idempotency-Key reaches the provider",
            "replies match the ABI schemas",
        ] {
            #expect(run.verdict(fault) == "fail", "\(fault): \(run.checks.first { $0.name == fault } as Any)")
        }
        #expect(run.verdict("load") == "pass")
        let secrets = run.checks.first { $0.name == "secrets stay secret" }?.detail ?? ""
        #expect(secrets.contains("api_key") && secrets.contains("a log line"), "\(secrets)")
        // The report names the leak without showing the value.
        #expect(!run.output.contains("sy-check-secret-"), "\(run.output)")
        let table = try Self.switchyard(["plugins", "check", file])
        #expect(table.status == 1)
        #expect(table.output.contains("broken: not certified (11 of"), "\(table.output)")
    }

    @Test func aPluginBuiltAgainstAnotherSwiftRuntimeIsRefusedByName() throws {
        let directory = try SwiftRuntimeFixtures.otherToolchain()
        let file = try SwiftRuntimeFixtures.pluginOfOtherToolchain(in: directory)
        let run = try Self.switchyard(["plugins", "check", file, "--json"])
        #expect(run.status == 1)
        let load = try #require(run.checks.first { $0.name == "load" })
        #expect(load.verdict == "fail")
        #expect(load.detail.contains("swift_runtime_mismatch"), "\(load.detail)")
        #expect(load.detail.contains(directory + "/libswiftCore.so"), "\(load.detail)")
        #expect(load.detail.contains("/libswiftCore.so, toolchain swiftlang/llvm-project"), "\(load.detail)")
    }

    @Test func badInputIsRefusedWithAClearMessage() throws {
        let missing = try Self.switchyard(["plugins", "check", "/nonexistent/libNothing.so"])
        #expect(missing.status != 0)
        #expect(missing.errors.contains("no plugin file at /nonexistent/libNothing.so"), "\(missing.errors)")

        let file = try FixturePlugins.echo()
        let directory = NSTemporaryDirectory() + "/switchyard-scenarios-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cases: [(text: String, message: String)] = [
            ("not json", "is not valid"),
            (#"{"flows": {"authorise": {}}}"#, "names flow authorise, which is not a flow"),
            (#"{"flows": {"authorize": {"responses": [{"status": "200"}]}}}"#, "flows.authorize.responses"),
        ]
        for (index, (text, message)) in cases.enumerated() {
            let path = directory + "/scenario-\(index).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let run = try Self.switchyard(["plugins", "check", file, "--scenario", path])
            #expect(run.status != 0, "\(text)")
            #expect(run.errors.contains(message), "\(text): \(run.errors)")
        }
        let noScenario = try Self.switchyard(["plugins", "check", file, "--scenario", directory + "/absent.json"])
        #expect(noScenario.errors.contains("cannot read the scenario"), "\(noScenario.errors)")
    }
}
