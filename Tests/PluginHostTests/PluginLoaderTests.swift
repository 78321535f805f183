import Foundation
import Logging
import PluginHost
import ProviderKit
import SwitchyardTestSupport
import TestWaiting
import Testing

@Suite("PluginLoader")
struct PluginLoaderTests {
    private let development = PluginPolicy(mode: .development, allowsAnyID: true)

    private func refusal(
        _ file: String, policy: PluginPolicy, services: RecordingHostServices = RecordingHostServices()
    ) async throws -> PluginRefusal? {
        let loader = try scanningLoader()
        do {
            _ = try await loader.load(file: file, policy: policy, hostServices: services)
            return nil
        } catch {
            return error
        }
    }

    private func loadEcho() async throws -> LoadedPlugin {
        try await scanningLoader().load(
            file: try FixturePlugins.echo(), policy: development, hostServices: RecordingHostServices())
    }

    /// Waits until the echo plugin has parked `count` refunds in all (it logs each one it parks).
    private func parked(_ services: RecordingHostServices, count: Int) async throws {
        try await Poll.until("\(count) refunds parked", within: .seconds(10), every: .milliseconds(5)) {
            services.logs.filter { $0.message == "refund parked" }.count >= count
        }
    }

    @Test func validPluginLoadsAndUsesHostServices() async throws {
        let file = try FixturePlugins.echo()
        let services = RecordingHostServices()
        let loader = try scanningLoader()
        let plugin = try await loader.load(
            file: file, policy: development, hostServices: services, now: services.fixedNow)
        #expect(plugin.manifest.id == "echo")
        #expect(plugin.manifest.version == "1.0.0")
        #expect(plugin.manifest.flows == [.authorize, .sync, .refund])
        #expect(plugin.sha256 == (try sha256OfFile(file)))
        #expect(plugin.filePath == file)
        #expect(plugin.loadedAt == services.fixedNow)
        // The plugin logged once at create time, through the host's services, tagged with its id.
        let created = RecordingHostServices.LogLine(
            level: .info, message: "echo created", metadata: ["fixture.version": "1.0.0", "plugin.id": "echo"]
        )
        #expect(services.logs.first == created)

        let outcome = try await plugin.authorize(.test, account: .test)
        #expect(outcome.kind == .authorized)
        #expect(outcome.providerPaymentId == "echo-1.0.0")
        #expect(outcome.providerStatus == "host-ok")
        let sent = try #require(services.sent.first)
        #expect(services.sent.count == 1)
        #expect(sent.method == "POST")
        #expect(sent.url == "http://127.0.0.1:9/echo")
    }

    @Test func hostReportsFailureOfHostServiceToPlugin() async throws {
        let services = RecordingHostServices(result: OutboundResult(kind: .notSent, reason: "connection refused"))
        let plugin = try await scanningLoader().load(
            file: try FixturePlugins.echo(), policy: development, hostServices: services)
        let outcome = try await plugin.authorize(.test, account: .test)
        #expect(outcome.providerStatus == "host-failed")
    }

    @Test func pinnedDigestLoads() async throws {
        let file = try FixturePlugins.echo()
        let policy = PluginPolicy(
            mode: .pinned, allowed: [.init(id: "echo", sha256: [try sha256OfFile(file).uppercased()])])
        #expect(try await refusal(file, policy: policy) == nil)
    }

    @Test func wrongABIIsRefused() async throws {
        let refusal = try #require(try await refusal(try FixturePlugins.echo(["FIXTURE_ABI=99"]), policy: development))
        #expect(refusal.code == .abiMismatch)
        #expect(refusal.reason.contains("99"))
    }

    @Test func garbageFileIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.writeGarbage("garbage.so")
        let refusal = try #require(try await refusal(directory.path + "/garbage.so", policy: development))
        #expect(refusal.code == .garbageFile)
    }

    @Test func sharedObjectWithoutEntryIsRefused() async throws {
        let refusal = try #require(
            try await refusal(try FixturePlugins.echo(["FIXTURE_NO_ENTRY"]), policy: development))
        #expect(refusal.code == .garbageFile)
        #expect(refusal.reason.contains("switchyard_plugin_entry"))
    }

    @Test func badManifestIsRefused() async throws {
        let refusal = try #require(
            try await refusal(try FixturePlugins.echo(["FIXTURE_BAD_MANIFEST"]), policy: development))
        #expect(refusal.code == .badManifest)
    }

    @Test func digestPinnedToAnotherFileIsRefused() async throws {
        let policy = PluginPolicy(
            mode: .pinned, allowed: [.init(id: "echo", sha256: [String(repeating: "ab", count: 32)])])
        let refusal = try #require(try await refusal(try FixturePlugins.echo(), policy: policy))
        #expect(refusal.code == .digestMismatch)
    }

    @Test func idNotAllowedIsRefused() async throws {
        let file = try FixturePlugins.echo()
        let developmentOther = PluginPolicy(mode: .development, allowed: [.init(id: "citcon")])
        #expect(try await refusal(file, policy: developmentOther)?.code == .notAllowed)
        // Pinned: the digest is known (listed for another id), but the id is not allowed.
        let pinnedOther = PluginPolicy(mode: .pinned, allowed: [.init(id: "citcon", sha256: [try sha256OfFile(file)])])
        #expect(try await refusal(file, policy: pinnedOther)?.code == .notAllowed)
    }

    @Test func unreadableFileIsRefused() async throws {
        #expect(try await refusal("/nonexistent/plugin.so", policy: development)?.code == .garbageFile)
    }

    @Test func undeclaredFlowIsNotSupported() async throws {
        let plugin = try await loadEcho()
        let request = VoidRequest(payment: PaymentLocator(attemptId: "a", providerPaymentId: nil), operationId: "v")
        await #expect(throws: PluginCallError.self) {
            _ = try await plugin.void(request, account: .test)
        }
    }

    @Test func cancellingTheCallerCancelsThePluginCall() async throws {
        let services = RecordingHostServices()
        let plugin = try await scanningLoader().load(
            file: try FixturePlugins.echo(), policy: development, hostServices: services)
        let call = Task { try await plugin.refund(.test, account: .test) }
        try await parked(services, count: 1)
        call.cancel()
        await #expect(throws: CancellationError.self) {
            _ = try await call.value
        }
        // The plugin is free again: the parked call was really cancelled and completed.
        let second = Task { try await plugin.refund(.test, account: .test) }
        // A plugin still holding the first would answer `busy` instead of parking this one.
        try await parked(services, count: 2)
        second.cancel()
        await #expect(throws: CancellationError.self) {
            _ = try await second.value
        }
    }

    @Test func callCancelledBeforeInvokeIsCancelled() async throws {
        let plugin = try await loadEcho()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await plugin.refund(.test, account: .test)
        }
        await #expect(throws: CancellationError.self) {
            _ = try await call.value
        }
    }

    @Test func manyConcurrentCallsAllComplete() async throws {
        let plugin = try await loadEcho()
        let statuses = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<200 {
                group.addTask { try await plugin.sync(.test, account: .test).providerStatus }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(statuses.count == 200)
        #expect(statuses.allSatisfy { $0 == "v1.0.0" })
    }
}
