import Foundation
import Logging
import ProviderKit
import SwitchyardTestSupport
import Testing

@testable import PluginHost

#if canImport(Glibc)
    import Glibc
#endif

/// Files are examined in a disposable scanner process: what a refused file does never happens in the
/// host, and a scanner that crashes, hangs or babbles is a refusal with a stable code.
@Suite("PluginScanner")
struct PluginScannerTests {
    private let anyID = PluginPolicy(mode: .development, allowsAnyID: true)

    private func probe(_ defines: [String] = []) throws -> String {
        try FixturePlugins.build("probe_plugin.c", defines: defines)
    }

    private func refusal(
        _ file: String, policy: PluginPolicy, loader: PluginLoader? = nil
    ) async throws -> PluginRefusal? {
        let loader = try loader ?? scanningLoader()
        do {
            _ = try await loader.load(file: file, policy: policy, hostServices: RecordingHostServices())
            return nil
        } catch {
            return error
        }
    }

    private func markerPath() -> String {
        NSTemporaryDirectory() + "/switchyard-marker-" + UUID().uuidString
    }

    @Test func aCrashInTheEntryFunctionIsRefusedAndTheHostLivesOn() async throws {
        let refusal = try #require(try await refusal(try probe(["FIXTURE_CRASH_IN_ENTRY"]), policy: anyID))
        #expect(refusal.code == .scanCrashed)
        #expect(refusal.reason.contains("SIGSEGV"))
        // The host still loads a good plugin afterwards.
        #expect(try await self.refusal(try probe(), policy: anyID) == nil)
    }

    @Test func aHangInTheEntryFunctionIsRefusedAfterTheScanTimeout() async throws {
        let loader = try PluginLoader(executable: switchyardExecutable, scanTimeout: .seconds(1), logger: .quiet)
        let started = ContinuousClock.now
        let refusal = try #require(
            try await refusal(try probe(["FIXTURE_HANG_IN_ENTRY"]), policy: anyID, loader: loader))
        #expect(refusal.code == .scanTimeout)
        // Generous bound: the scanner is killed at its deadline, not waited for.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func theMarkerFixtureWritesItsMarkerWhenOpenedInProcess() throws {
        // Control for the test below: the constructor really runs and really writes, when not confined.
        let marker = markerPath()
        defer { unlink(marker) }
        let file = try probe(["FIXTURE_ID=\"sneaky\"", "FIXTURE_MARKER_FILE=\"\(marker)\""])
        let copy = NSTemporaryDirectory() + "/switchyard-control-" + UUID().uuidString + ".so"
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        defer { unlink(copy) }
        #expect(dlopen(copy, RTLD_NOW | RTLD_LOCAL) != nil)
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test func anUnlistedIDsConstructorNeverWritesAFile() async throws {
        let marker = markerPath()
        defer { unlink(marker) }
        let file = try probe(["FIXTURE_ID=\"sneaky\"", "FIXTURE_MARKER_FILE=\"\(marker)\""])
        let policy = PluginPolicy(mode: .development, allowed: [.init(id: "citcon")])
        let refusal = try #require(try await refusal(file, policy: policy))
        #expect(refusal.code == .notAllowed)
        #expect(refusal.reason.contains("sneaky"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func withoutAScannerNothingIsOpened() async throws {
        let marker = markerPath()
        defer { unlink(marker) }
        let file = try probe(["FIXTURE_MARKER_FILE=\"\(marker)\""])
        let loader = try PluginLoader(executable: nil, logger: .quiet)
        let refusal = try #require(try await refusal(file, policy: anyID, loader: loader))
        #expect(refusal.code == .scannerUnavailable)
        #expect(!FileManager.default.fileExists(atPath: marker))

        let missing = try PluginLoader(executable: PluginExecutable(path: "/nonexistent/switchyard"), logger: .quiet)
        #expect(try await self.refusal(file, policy: anyID, loader: missing)?.code == .scannerUnavailable)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func aScannerThatAnswersGarbageOrFailsIsRefused() async throws {
        let file = try probe()
        // `echo` prints its arguments: not a report.
        let babbling = try PluginLoader(executable: PluginExecutable(path: "/bin/echo"), logger: .quiet)
        #expect(try await refusal(file, policy: anyID, loader: babbling)?.code == .scanBadOutput)
        let failing = try PluginLoader(executable: PluginExecutable(path: "/bin/false"), logger: .quiet)
        #expect(try await refusal(file, policy: anyID, loader: failing)?.code == .scanCrashed)
    }

    private func reportRefusal(_ output: String) -> PluginRefusal? {
        do {
            _ = try PluginScanner.report(from: Data(output.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func forgedReportsAreNotBelieved() throws {
        let manifest =
            #"{"id":"BAD ID","version":"1","provider":"x","abiVersion":1,"flows":[],"methods":[],"#
            + #""countries":[],"currencies":[],"honoursIdempotencyKey":false,"usesAccessToken":false,"credentials":[]}"#
        let good = manifest.replacingOccurrences(of: "BAD ID", with: "ok")
        let table = #""table":{"abiVersion":1,"structSize":56,"entries":["create","destroy","invoke"]}"#
        // A refusal code a scanner never gives, no verdict, an unusable table, two lines.
        for output in [
            #"{"sandbox":{"restricted":true},"refusal":{"code":"create_failed","reason":"x"}}"#,
            #"{"sandbox":{"restricted":true}}"#,
            #"{"sandbox":{"restricted":true},"table":{"abiVersion":1,"structSize":8,"entries":["create"]},"manifest":"#
                + good + "}",
            #"{"sandbox":{"restricted":true},"# + table + #","manifest":"# + good + "}\n{}",
        ] {
            #expect(reportRefusal(output)?.code == .scanBadOutput, "\(output)")
        }
        // The manifest is checked again on the host's side.
        let badID = #"{"sandbox":{"restricted":true},"# + table + #","manifest":"# + manifest + "}"
        #expect(reportRefusal(badID)?.code == .badManifest)
        let fine = #"{"sandbox":{"restricted":true},"# + table + #","manifest":"# + good + "}\n"
        #expect(reportRefusal(fine) == nil)
    }

    @Test func theScannerNeverGetsTheServersSecretsInItsEnvironment() {
        let environment = ScannerRun.environment([
            "SWITCHYARD_KEK": "kek", "SWITCHYARD_OPERATOR_TOKEN": "token",
            "SWITCHYARD_DATABASE_URL": "postgres://u:p@h",
            "PATH": "/usr/bin", "LD_LIBRARY_PATH": "/opt/lib",
        ])
        #expect(environment == ["LD_LIBRARY_PATH=/opt/lib", "PATH=/usr/bin", "SWIFT_BACKTRACE=enable=no"])
    }

    @Test func theScannerRestrictsItselfOnThisMachine() async throws {
        let scanner = PluginScanner(executable: switchyardExecutable, logger: .quiet)
        let copy = NSTemporaryDirectory() + "/switchyard-scan-" + UUID().uuidString + ".so"
        try FileManager.default.copyItem(atPath: try probe(), toPath: copy)
        defer { unlink(copy) }
        let report = try await scanner.scan(copy)
        #expect(report.sandbox.restricted, "seccomp: \(report.sandbox.problem ?? "")")
        #expect(report.manifest?.id == "probe")
        #expect(report.table?.entries == ["create", "destroy", "invoke", "cancel"])
    }
}
