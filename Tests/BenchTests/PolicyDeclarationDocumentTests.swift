import ArgumentParser
import Foundation
import SwitchyardApp
import SwitchyardCore
import Testing

@testable import SwitchyardCommands
@testable import switchyard

/// What reads and writes `policy.json` follows the keys the platform policy declares: the strict reading
/// and `switchyard policy check` accept every declared key and refuse any other with its path, and the
/// embedded default's policy file takes the declared default of every key it does not set.
struct PolicyDeclarationDocumentTests {
    /// A document with every declared key at the default its declaration shows, and the plugins section.
    static var everyKeyDocument: String {
        let sections = Dictionary(grouping: PlatformPolicy.declaredKeys, by: \.section)
            .map { section, keys in
                "\"\(section)\": {" + keys.map { "\"\($0.key.name)\": \($0.key.defaultText)" }.joined(separator: ", ")
                    + "}"
            }
        return #"{"plugins": {"mode": "pinned", "allowed": []}, "# + sections.sorted().joined(separator: ", ") + "}"
    }

    /// Runs `switchyard policy check` on `text`; true when it passes.
    static func policyCheckPasses(_ text: String) async throws -> Bool {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString).json")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            try await PolicyCommand.Check.parse([path]).run()
            return true
        } catch let exit as ExitCode {
            #expect(exit == .failure)
            return false
        }
    }

    @Test func everyDeclaredKeyPassesTheStrictReadingAndPolicyCheck() async throws {
        #expect(PolicyDocument.problems(in: Data(Self.everyKeyDocument.utf8)) == [])
        #expect(try await Self.policyCheckPasses(Self.everyKeyDocument))
    }

    @Test func anUndeclaredKeyIsRefusedWithItsPathByTheStrictReadingAndPolicyCheck() async throws {
        for section in Set(PlatformPolicy.declaredKeys.map(\.section)) {
            let text = #"{"\#(section)": {"not_a_key": 1}}"#
            #expect(PolicyDocument.problems(in: Data(text.utf8)) == ["\(section).not_a_key: unknown key"])
        }
        #expect(try await Self.policyCheckPasses(#"{"failover": {"not_a_key": 1}}"#) == false)
    }

    @Test func theEmbeddedDefaultsPolicyFileIsWrittenFromTheDeclarations() throws {
        let written = try PolicyDocument(data: Data(DevelopmentPolicy.text.utf8))
        var expected = PlatformPolicy()
        expected.webhooks.requireHTTPS = false
        expected.webhooks.allowHosts = ["127.0.0.1", "localhost", "::1"]
        #expect(written.platform == expected)
        #expect(DevelopmentPolicy.platform == expected)
        // The text a data directory's policy.json was written with before is still recognised as unedited.
        let plugins = DevelopmentPolicy.bundledPlugins.map { #"      { "id": "\#($0)" }"# }.joined(separator: ",\n")
        #expect(
            DevelopmentPolicy.text == """
                {
                  "plugins": {
                    "mode": "development",
                    "allowed": [
                \(plugins)
                    ]
                  },
                  "webhooks": {
                    "require_https": false,
                    "allow_hosts": ["127.0.0.1", "localhost", "::1"]
                  }
                }

                """)
        #expect(written.plugins.mode == .development)
        #expect(written.plugins.allowed.map(\.id) == DevelopmentPolicy.bundledPlugins)
    }
}
