import Foundation
import Logging
import PluginHost
import ProviderKit
import SwitchyardTestSupport
import Testing

@Suite("PluginRegistry")
struct PluginRegistryTests {
    private func registry(_ directory: TemporaryDirectory, policy: PluginPolicy = PluginPolicy(mode: .development))
        -> PluginRegistry
    {
        PluginRegistry(
            directory: directory.path, policy: policy, hostServices: RecordingHostServices(), logger: .quiet,
            executable: PluginExecutable(path: BuildProducts.switchyard))
    }

    @Test func reloadLoadsValidFilesAndListsRefusals() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let echo = try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        try directory.writeGarbage("garbage.so")
        try FixturePlugins.install(try FixturePlugins.echo(["FIXTURE_ABI=99"]), in: directory.path, as: "old-abi.so")
        try Data("not a plugin".utf8).write(to: URL(fileURLWithPath: directory.path + "/notes.txt"))
        let registry = registry(directory)

        let report = await registry.reload()
        #expect(report.loaded.map(\.id) == ["echo"])
        #expect(Set(report.refused.map(\.code)) == ["garbage_file", "abi_mismatch"])

        let snapshot = await registry.snapshot()
        let loaded = try #require(snapshot.loaded.first)
        #expect(loaded.id == "echo")
        #expect(loaded.version == "1.0.0")
        #expect(loaded.provider == "Echo")
        #expect(loaded.file == echo)
        #expect(loaded.sha256 == (try sha256OfFile(echo)))
        #expect(loaded.flows == [.authorize, .sync, .refund])
        #expect(loaded.methods == ["card"])
        #expect(
            snapshot.refused.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["garbage.so", "old-abi.so"])
        #expect(snapshot.refused.map(\.code) == ["garbage_file", "abi_mismatch"])

        let outcome = try await #require(await registry.plugin(id: "echo")).sync(.test, account: .test)
        #expect(outcome.providerStatus == "v1.0.0")

        let again = await registry.reload()
        #expect(again.loaded.isEmpty && again.refused.isEmpty && again.removed.isEmpty)
        #expect(again.unchanged.count == 3)
    }

    @Test func touchedButIdenticalFileIsNotReloaded() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let built = try FixturePlugins.echo()
        try FixturePlugins.install(built, in: directory.path, as: "echo.so")
        let registry = registry(directory)
        await registry.reload()
        let first = try #require(await registry.plugin(id: "echo"))
        // Same bytes under a new inode and mtime: the digest says nothing changed.
        try FixturePlugins.install(built, in: directory.path, as: "echo.so")
        let report = await registry.reload()
        #expect(report.loaded.isEmpty && report.refused.isEmpty)
        #expect(report.unchanged == [directory.path + "/echo.so"])
        #expect(
            try await #require(await registry.plugin(id: "echo")).sync(.test, account: .test).providerStatus == "v1.0.0"
        )
        #expect(await registry.plugin(id: "echo")?.sha256 == first.sha256)
    }

    @Test func secondFileWithTheSameIDIsADuplicate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "a-echo.so")
        try FixturePlugins.install(
            try FixturePlugins.echo(["FIXTURE_VERSION=\"2.0.0\""]), in: directory.path, as: "b-echo.so")
        let registry = registry(directory)
        await registry.reload()
        #expect(await registry.plugin(id: "echo")?.manifest.version == "1.0.0")
        let refused = await registry.snapshot().refused
        #expect(refused.map(\.code) == ["duplicate_id"])
        #expect(refused.first?.file.hasSuffix("b-echo.so") == true)

        // When the holder disappears, the other file gets its turn.
        try FileManager.default.removeItem(atPath: directory.path + "/a-echo.so")
        let report = await registry.reload()
        #expect(report.removed == ["echo"])
        #expect(report.loaded.map(\.version) == ["2.0.0"])
        #expect(await registry.snapshot().refused.isEmpty)
    }

    @Test func refusedRebuildKeepsThePreviousBuildServing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        let registry = registry(directory)
        await registry.reload()
        try FixturePlugins.install(try FixturePlugins.echo(["FIXTURE_ABI=99"]), in: directory.path, as: "echo.so")
        let report = await registry.reload()
        #expect(report.refused.map(\.code) == ["abi_mismatch"])
        #expect(await registry.plugin(id: "echo")?.manifest.version == "1.0.0")
    }

    @Test func policyUpdateUnloadsAndReadmits() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        let registry = registry(directory)
        await registry.reload()
        #expect(await registry.plugin(id: "echo") != nil)

        await registry.updatePolicy(PluginPolicy(mode: .development, allowed: [.init(id: "citcon")]))
        #expect(await registry.plugin(id: "echo") == nil)
        #expect(await registry.snapshot().refused.map(\.code) == ["not_allowed"])

        await registry.updatePolicy(PluginPolicy(mode: .development))
        let report = await registry.reload()
        #expect(report.loaded.map(\.id) == ["echo"])
        #expect(await registry.snapshot().refused.isEmpty)
    }

    @Test func pinnedPolicyLoadsOnlyListedDigests() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let one = try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        let two = try FixturePlugins.install(
            try FixturePlugins.echo(["FIXTURE_ID=\"other\""]), in: directory.path, as: "other.so")
        let policy = PluginPolicy(
            mode: .pinned,
            allowed: [.init(id: "echo", sha256: [try sha256OfFile(one)]), .init(id: "other", sha256: [])]
        )
        let registry = registry(directory, policy: policy)
        await registry.reload()
        #expect(await registry.snapshot().loaded.map(\.id) == ["echo"])
        #expect(await registry.snapshot().refused.map(\.code) == ["digest_mismatch"])

        await registry.updatePolicy(
            PluginPolicy(mode: .pinned, allowed: policy.allowed + [.init(id: "other", sha256: [try sha256OfFile(two)])])
        )
        await registry.reload()
        #expect(await registry.snapshot().loaded.map(\.id) == ["echo", "other"])
    }

    @Test func hotReloadWhileWatching() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let registry = registry(directory)
        let watcher = Task { await registry.watch(every: .milliseconds(100)) }
        defer { watcher.cancel() }

        // A new file appears: it is served without restarting anything.
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        #expect(await eventually { await registry.plugin(id: "echo") != nil })
        let first = try #require(await registry.plugin(id: "echo"))
        #expect(try await first.sync(.test, account: .test).providerStatus == "v1.0.0")

        // A changed build replaces it; the new version is served.
        try FixturePlugins.install(
            try FixturePlugins.echo(["FIXTURE_VERSION=\"2.0.0\""]), in: directory.path, as: "echo.so")
        #expect(await eventually { await registry.plugin(id: "echo")?.manifest.version == "2.0.0" })
        let second = try #require(await registry.plugin(id: "echo"))
        #expect(try await second.sync(.test, account: .test).providerStatus == "v2.0.0")
        // The old image stays mapped: a caller still holding the old plugin can finish its work.
        #expect(try await first.sync(.test, account: .test).providerStatus == "v1.0.0")

        // Deleted: gone.
        try FileManager.default.removeItem(atPath: directory.path + "/echo.so")
        #expect(await eventually { await registry.plugin(id: "echo") == nil })
        #expect(await registry.snapshot().loaded.isEmpty)

        watcher.cancel()
        await watcher.value
    }

    @Test func watcherPicksUpAPolicyUpdate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        let registry = registry(directory, policy: .denyAll)
        let watcher = Task { await registry.watch(every: .milliseconds(100)) }
        defer { watcher.cancel() }
        #expect(await eventually { await registry.snapshot().refused.map(\.code) == ["digest_mismatch"] })
        await registry.updatePolicy(PluginPolicy(mode: .development))
        #expect(await eventually { await registry.plugin(id: "echo") != nil })
    }
}
