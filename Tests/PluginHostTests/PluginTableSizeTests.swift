import CSwitchyardPlugin
import Foundation
import PluginWorkerCore
import ProviderKit
import SwitchyardTestSupport
import Testing

@testable import PluginHost

/// The entry table is versioned by `struct_size`: older, smaller tables (down to `invoke`) and newer,
/// larger ones load; entries beyond a table's size are never read.
@Suite("Plugin table size")
struct PluginTableSizeTests {
    private let anyID = PluginPolicy(mode: .development, allowsAnyID: true)

    private func scan(_ defines: [String]) async throws -> PluginScanReport {
        let copy = NSTemporaryDirectory() + "/switchyard-table-" + UUID().uuidString + ".so"
        try FileManager.default.copyItem(
            atPath: try FixturePlugins.build("probe_plugin.c", defines: defines), toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        return try await PluginScanner(executable: switchyardExecutable, logger: .quiet).scan(copy)
    }

    @Test func anOlderTableWithoutCancelLoadsAndItsMissingEntryIsNeverRead() async throws {
        let report = try await scan(["FIXTURE_SMALL_TABLE"])
        #expect(report.table?.structSize == UInt32(MemoryLayout<sy_plugin_table>.offset(of: \.cancel)!))
        // The slot after the table holds a pointer that is not an entry: it is not reported.
        #expect(report.table?.entries == ["create", "destroy", "invoke"])

        let file = try FixturePlugins.build("probe_plugin.c", defines: ["FIXTURE_SMALL_TABLE"])
        let table = try PluginImage.open(file)
        #expect(!table.hasCancel)
        #expect(table.entries.cancel == nil)

        let plugin = try await scanningLoader().load(file: file, policy: anyID, hostServices: RecordingHostServices())
        #expect(try await plugin.sync(.test, account: .test).providerStatus == "probe-probe")
    }

    @Test func aNewerLargerTableLoads() async throws {
        let report = try await scan(["FIXTURE_LARGE_TABLE"])
        #expect(report.table.map { Int($0.structSize) } == MemoryLayout<sy_plugin_table>.size + 16)
        #expect(report.table?.entries == ["create", "destroy", "invoke", "cancel"])
        let plugin = try await scanningLoader().load(
            file: try FixturePlugins.build("probe_plugin.c", defines: ["FIXTURE_LARGE_TABLE"]), policy: anyID,
            hostServices: RecordingHostServices())
        #expect(try await plugin.sync(.test, account: .test).providerStatus == "probe-probe")
    }

    @Test func aTableEndingBeforeInvokeIsRefused() async throws {
        let size = MemoryLayout<sy_plugin_table>.offset(of: \.invoke)!
        let file = try FixturePlugins.build("probe_plugin.c", defines: ["FIXTURE_STRUCT_SIZE=\(size)"])
        let loader = try scanningLoader()
        do {
            _ = try await loader.load(file: file, policy: anyID, hostServices: RecordingHostServices())
            Issue.record("a table without invoke loaded")
        } catch {
            #expect(error.code == .abiMismatch)
            #expect(error.reason.contains("\(PluginTable.minimumSize)"))
        }
    }
}
