import Foundation
import SwitchyardApp
import Testing

@testable import SwitchyardBench
@testable import SwitchyardCommands
@testable import switchyard

/// The policy files Switchyard writes or ships pass the strict reading `serve` and `policy check` apply.
struct PolicyFilesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func theWrittenAndShippedPoliciesHaveOnlyKnownKeys() throws {
        #expect(PolicyDocument.problems(in: Data(DevelopmentPolicy.text.utf8)) == [])
        #expect(PolicyDocument.problems(in: Data(try BenchServer.policy().utf8)) == [])
        for file in ["policy.json", "deploy/policy.production.json"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.repository + "/" + file))
            #expect(PolicyDocument.problems(in: data) == [], "\(file)")
        }
    }

    @Test func theBenchCanRunEveryPluginInProcess() throws {
        let text = try BenchServer.policy(pluginsInProcess: true)
        #expect(PolicyDocument.problems(in: Data(text.utf8)) == [])
        let inProcess = try PolicyDocument(data: Data(text.utf8)).plugins
        #expect(!inProcess.allowed.isEmpty)
        #expect(inProcess.allowed.allSatisfy { $0.isolation == .inProcess })
        let workers = try PolicyDocument(data: Data(try BenchServer.policy().utf8)).plugins
        #expect(workers.allowed.map(\.id) == inProcess.allowed.map(\.id))
        #expect(workers.allowed.allSatisfy { $0.isolation == .process })
    }

    @Test func problemsAreListedOnePerLine() {
        let data = Data(
            #"{"plugins":{"mode":"pinned","allowed":[{"id":"a","sah256":[]}]},"janitor":{"pol_ms":5},"x":1}"#.utf8)
        #expect(
            PolicyDocument.problems(in: data) == [
                "janitor.pol_ms: unknown key, did you mean poll_ms?",
                "plugins.allowed[0].sah256: unknown key, did you mean sha256?", "x: unknown key",
            ])
        #expect(PolicyDocument.problems(in: Data("{not json".utf8)).first?.hasPrefix("not valid JSON") == true)
        #expect(
            PolicyDocument.problems(in: Data(#"{"failover":{"attempt_limit":"3"}}"#.utf8))
                == ["failover.attempt_limit: expected a number"])
    }

    @Test func serveReadsItsSettingsFromFlags() throws {
        let command = try ServeOptions.parse([
            "--public-url", "https://payments.example.com", "--allow-loopback-public-url", "--host", "0.0.0.0",
            "--port", "9000",
        ])
        #expect(command.publicURLOption == "https://payments.example.com")
        #expect(command.allowLoopbackPublicURLFlag)
        #expect(command.host == "0.0.0.0")
        #expect(try command.port == 9000)
        #expect(try command.publicURL(host: "0.0.0.0", port: 9000, external: true) == "https://payments.example.com")
    }
}
