import Foundation
import Logging
import PluginHost
import ProviderKit
import SwitchyardTestSupport
import Testing

/// Prints the latency of one plugin call in a worker process and in process (measured, never asserted).
@Suite("Plugin call latency")
struct WorkerLatencyBenchmarkTests {
    static let calls = 500

    @Test(arguments: [PluginIsolation.process, .inProcess])
    func echoSyncLatency(_ isolation: PluginIsolation) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        var policy = PluginPolicy(mode: .development, allowed: [.init(id: "echo")])
        policy.allowed[0].isolation = isolation
        let registry = PluginRegistry(
            directory: directory.path, policy: policy, hostServices: RecordingHostServices(), logger: .quiet,
            executable: PluginExecutable(path: BuiltProducts.switchyard))
        await registry.reload()
        let plugin = try #require(await registry.plugin(id: "echo"))
        for _ in 0..<20 {
            _ = try await plugin.sync(.test, account: .test)
        }
        var samples: [Duration] = []
        samples.reserveCapacity(Self.calls)
        for _ in 0..<Self.calls {
            let started = ContinuousClock.now
            _ = try await plugin.sync(.test, account: .test)
            samples.append(ContinuousClock.now - started)
        }
        samples.sort()
        let p50 = samples[samples.count / 2]
        let p99 = samples[samples.count * 99 / 100]
        print("plugin call latency (\(isolation.rawValue), \(Self.calls) echo sync calls): p50 \(p50), p99 \(p99)")
        #expect(samples.count == Self.calls)
    }
}
