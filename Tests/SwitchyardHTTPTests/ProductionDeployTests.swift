import Foundation
import PluginHost
import SwitchyardApp
import SwitchyardCluster
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardStore
import SwitchyardTestSupport
import Testing

/// The production deploy: pinning the built plugins, the shipped production policy, and a server with
/// an external database refusing a development-mode policy.
@Suite(.serialized)
struct ProductionDeployTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Runs the production executable, `switchyard-server <arguments>`, to its end (in a new empty directory,
    /// without SWITCHYARD_DATABASE_URL); its status, standard output and standard error.
    static func switchyard(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestStack.buildDirectory + "/switchyard-server")
        process.arguments = arguments
        let directory = try EmbeddedDefaultTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "SWITCHYARD_DATABASE_URL" }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// A directory holding the built plugins and a file that is not a plugin.
    static func pluginDirectory() throws -> String {
        let directory = try EmbeddedDefaultTests.temporaryDirectory()
        for library in TestStack.pluginLibraries {
            try FileManager.default.copyItem(
                atPath: try TestStack.pluginPath(library), toPath: directory + "/" + library)
        }
        try Data("not a shared object".utf8).write(to: URL(fileURLWithPath: directory + "/libGarbage.so"))
        return directory
    }

    static func digest(_ path: String) throws -> String {
        Hex.encode(SHA2.sha256([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
    }

    /// The `allowed` entries of a plugins section, by id.
    static func entries(_ section: [String: Any]) -> [String: [String: Any]] {
        let allowed = section["allowed"] as? [[String: Any]] ?? []
        return Dictionary(allowed.map { ($0["id"] as? String ?? "-", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func pinPrintsThePinnedEntriesOfTheBuiltPlugins() throws {
        let directory = try Self.pluginDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.switchyard(["plugins", "pin", directory])
        #expect(run.status == 0, "\(run.errors)")
        // The file that is not a plugin is skipped, and said so on standard error.
        #expect(run.errors.contains("skipped libGarbage.so"), "\(run.errors)")

        let data = Data(run.output.utf8)
        let policy = try JSONDecoder().decode(PluginPolicy.self, from: data)
        #expect(policy.mode == .pinned)
        #expect(Set(policy.allowed.map(\.id)) == Set(TestStack.bundledPluginIDs))
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let byID = Self.entries(raw)
        for library in TestStack.pluginLibraries {
            let digest = try Self.digest(directory + "/" + library)
            let entry = try #require(policy.allowed.first { $0.sha256 == [digest] }, "\(library) not pinned")
            #expect(policy.evaluate(id: entry.id, sha256: digest) == .allowed)
            #expect((byID[entry.id]?["version"] as? String)?.isEmpty == false)
        }

        // With --policy, the whole file comes back with its plugins section replaced.
        let whole = try Self.switchyard(["plugins", "pin", directory, "--policy", Self.repository + "/policy.json"])
        #expect(whole.status == 0, "\(whole.errors)")
        let file = try PolicyFile.decode(Data(whole.output.utf8))
        #expect(file.plugins == policy)
        let platform = try JSONDecoder().decode(PlatformPolicy.self, from: Data(whole.output.utf8))
        #expect(platform.webhooks.requireHTTPS)
        #expect(platform.problem() == nil)
        #expect(PolicyDocument.problems(in: Data(whole.output.utf8)) == [], "pinned entries carry only known keys")
    }

    @Test func theProductionPolicyIsPinnedForTheShippedPluginsAndTheirVersions() throws {
        let path = Self.repository + "/deploy/policy.production.json"
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let plugins = try PolicyFile.decode(data).plugins
        #expect(plugins.mode == .pinned)
        #expect(!plugins.allowsAnyID)
        let platform = try JSONDecoder().decode(PlatformPolicy.self, from: data)
        #expect(platform.problem() == nil)
        #expect(platform.webhooks.requireHTTPS)
        #expect(PolicyDocument.problems(in: data) == [])

        // The same ids and versions as the plugins built from this tree. Digests depend on the toolchain
        // and the build, so they are regenerated with `switchyard plugins pin` (docs/operations.md, "Production deploy").
        let directory = try Self.pluginDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.switchyard(["plugins", "pin", directory])
        #expect(run.status == 0, "\(run.errors)")
        let built = Self.entries(
            try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]))
        let shipped = Self.entries(
            try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["plugins"] as? [String: Any]
                ?? [:])
        #expect(Set(shipped.keys) == Set(built.keys))
        for (id, entry) in shipped {
            #expect(entry["version"] as? String == built[id]?["version"] as? String, "\(id)")
            let digests = entry["sha256"] as? [String] ?? []
            #expect(!digests.isEmpty, "\(id) has no digest")
            for digest in digests {
                #expect(digest.count == 64 && digest.allSatisfy(\.isHexDigit), "\(id): \(digest)")
            }
        }
    }

    @Test func aServerWithAnExternalDatabaseRefusesADevelopmentPolicy() async throws {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let root = try EmbeddedDefaultTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(#"{"plugins":{"mode":"development","allowed":[{"id":"citcon"}]}}"#.utf8).write(
            to: URL(fileURLWithPath: root + "/p.json"))
        let server = try ServeProcess(
            arguments: [
                "--database-url", database.appURL, "--no-migrate", "--policy", root + "/p.json", "--data-dir",
                root + "/data", "--port", "\(PostgresCluster.freePort())",
            ],
            directory: root,
            environment: [
                "SWITCHYARD_KEK": Data(SecureRandom.bytes(32)).base64EncodedString(),
                "SWITCHYARD_OPERATOR_TOKEN": "op_" + SecureRandom.token(bytes: 32),
            ], executable: "switchyard-server")
        let status = try await server.exitStatus()
        try await server.stop()
        #expect(status != nil && status != 0)
        let output = server.output
        #expect(output.contains("development mode") && output.contains("--allow-development-plugins"), "\(output)")
        #expect(!output.contains("Fatal error") && !output.lowercased().contains("backtrace"), "\(output)")
        #expect(!output.contains("switchyard listening"), "\(output)")
    }

    @Test func theProductionServerRefusesToServeWithoutADatabase() throws {
        let run = try Self.switchyard(["serve", "--port", "\(PostgresCluster.freePort())"])
        #expect(run.status != 0)
        #expect(
            run.errors.contains("--database-url") && run.errors.contains("SWITCHYARD_DATABASE_URL"), "\(run.errors)")
        #expect(!run.errors.contains("Fatal error"), "\(run.errors)")
        let help = try Self.switchyard(["--help"])
        #expect(help.output.contains("plugins") && help.output.contains("doctor"), "\(help.output)")
        #expect(!help.output.contains("sandbox"), "\(help.output)")
    }
}
