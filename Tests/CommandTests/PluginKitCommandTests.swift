import ArgumentParser
import Foundation
import SwitchyardTestSupport
import Testing

@testable import SwitchyardCommands

/// `switchyard plugins sdk`, `new` and the policy change of `install`, without a server.
struct PluginKitCommandTests {
    private static func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "/switchyard-kit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theSDKIsTheHeaderAndSchemasOfThisCheckoutWithTheWorkersRuntime() throws {
        let out = try Self.temporaryDirectory() + "/sdk"
        try PluginsCommand.SDK.parse(["--out", out]).run()
        let root = FixturePlugins.repositoryRoot.path
        let header = try Data(contentsOf: URL(fileURLWithPath: out + "/include/switchyard_plugin.h"))
        #expect(
            header
                == (try Data(
                    contentsOf: URL(fileURLWithPath: root + "/Sources/CSwitchyardPlugin/include/switchyard_plugin.h"))))
        let schemas = try FileManager.default.subpathsOfDirectory(atPath: root + "/Sources/CSwitchyardPlugin/schema")
            .filter { $0.hasSuffix(".json") }
        #expect(schemas.count > 20)
        for schema in schemas {
            #expect(
                FileManager.default.contents(atPath: out + "/schema/" + schema)
                    == FileManager.default.contents(atPath: root + "/Sources/CSwitchyardPlugin/schema/" + schema),
                "\(schema)")
        }
        let toolchain = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/toolchain.json")))
                as? [String: Any])
        #expect(toolchain["abiVersion"] as? Int == 1)
        #expect((toolchain["swiftRuntime"] as? String)?.hasSuffix("/libswiftCore.so") == true)
        #expect((toolchain["toolchain"] as? String)?.hasPrefix("swiftlang/llvm-project ") == true)
    }

    @Test(arguments: ["swift", "c"])
    func aNewPackageHasEveryPlaceholderFilledIn(_ language: String) throws {
        let dir = try Self.temporaryDirectory() + "/AcmePay"
        try PluginsCommand.New.parse([
            "AcmePay", "--language", language, "--dir", dir, "--sdk", FixturePlugins.repositoryRoot.path,
        ])
        .run()
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir)
        #expect(!files.isEmpty)
        #expect(files.contains("scenario.json") && files.contains("README.md"))
        for file in files where !file.contains("__") {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: dir + "/" + file, isDirectory: &isDirectory)
            if isDirectory.boolValue { continue }
            let text = String(decoding: FileManager.default.contents(atPath: dir + "/" + file) ?? Data(), as: UTF8.self)
            #expect(!text.contains("__Name__") && !text.contains("__name__") && !text.contains("__id__"), "\(file)")
            #expect(!text.contains("__SDK_"), "\(file)")
        }
        #expect(!files.contains { $0.contains("__Name__") || $0.contains("__name__") }, "\(files)")
        if language == "swift" {
            let package = try String(contentsOfFile: dir + "/Package.swift", encoding: .utf8)
            #expect(package.contains(#".package(path: "\#(FixturePlugins.repositoryRoot.path)")"#), "\(package)")
            #expect(package.contains("AcmePayPlugin"))
            #expect(files.contains("Sources/AcmePayPluginEntry/AcmePayEntry.swift"), "\(files)")
        } else {
            #expect(files.contains("sdk/include/switchyard_plugin.h"))
            #expect(FileManager.default.isExecutableFile(atPath: dir + "/build.sh"))
        }
        let manifest = files.compactMap { file -> String? in
            let text = String(decoding: FileManager.default.contents(atPath: dir + "/" + file) ?? Data(), as: UTF8.self)
            return text.contains("acme-pay") ? file : nil
        }
        #expect(!manifest.isEmpty, "the plugin id acme-pay appears nowhere")
    }

    @Test func newRefusesABadNameAnIDAndAFullDirectory() throws {
        for name in ["acme", "Acme Pay", "Acme-Pay", "", "A" + String(repeating: "b", count: 40)] {
            #expect(throws: (any Error).self, "\(name)") { try PluginsCommand.New.parse([name]) }
        }
        #expect(throws: (any Error).self) { try PluginsCommand.New.parse(["Acme", "--id", "Acme_Pay"]) }
        #expect(throws: (any Error).self) { try PluginsCommand.New.parse(["Acme", "--language", "rust"]) }
        let dir = try Self.temporaryDirectory()
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/kept"))
        let command = try PluginsCommand.New.parse(["Acme", "--language", "c", "--dir", dir])
        #expect(throws: ValidationError.self) { try command.run() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["kept"])
        #expect(PluginsCommand.New.kebab("AcmePayEU") == "acme-pay-e-u")
        #expect(PluginsCommand.New.kebab("Acme") == "acme")
    }

    @Test func installAllowsTheIDAndPinsTheDigestOnlyInPinnedMode() throws {
        let digest = String(repeating: "ab", count: 32)
        func allowed(_ policy: String) throws -> [[String: Any]] {
            let data = try PolicyAllowance.allowing(id: "acme", sha256: digest, in: Data(policy.utf8))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return (document["plugins"] as? [String: Any])?["allowed"] as? [[String: Any]] ?? []
        }
        let development = try allowed(
            #"{"plugins": {"mode": "development", "allowed": [{"id": "citcon"}]}, "limits": {}}"#)
        #expect(development.map { $0["id"] as? String } == ["citcon", "acme"])
        #expect(development.last?["sha256"] == nil)
        let pinned = try allowed(#"{"plugins": {"mode": "pinned", "allowed": [{"id": "acme", "sha256": ["00"]}]}}"#)
        #expect(pinned.count == 1)
        #expect(pinned.first?["sha256"] as? [String] == ["00", digest])
        let fresh = try allowed(#"{"plugins": {"mode": "pinned", "allowed": []}}"#)
        #expect(fresh.first?["sha256"] as? [String] == [digest])
        // Other sections are kept; a wildcard already allows every id.
        let kept = try PolicyAllowance.allowing(
            id: "acme", sha256: digest,
            in: Data(#"{"plugins": {"mode": "development"}, "webhooks": {"require_https": false}}"#.utf8))
        #expect(String(decoding: kept, as: UTF8.self).contains("require_https"))
        let wildcard = Data(#"{"plugins": {"mode": "development", "allowed": "*"}}"#.utf8)
        #expect(try PolicyAllowance.allowing(id: "acme", sha256: digest, in: wildcard) == wildcard)
        #expect(throws: (any Error).self) {
            try PolicyAllowance.allowing(id: "acme", sha256: digest, in: Data("[]".utf8))
        }
    }
}
