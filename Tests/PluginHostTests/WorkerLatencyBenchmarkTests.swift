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

    /// One call without an outbound send (`sync`: the invocation and the reply cross) and one with a send
    /// (`authorize`: the send and its result cross too), in a worker and in process. The difference between
    /// the two flows in a worker, less the same difference in process, is what relaying one `http_send`
    /// through the server costs against a worker that would send itself.
    @Test(arguments: [PluginIsolation.process, .inProcess])
    func echoCallLatency(_ isolation: PluginIsolation) async throws {
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
        let flows: [(String, @Sendable () async throws -> Outcome)] = [
            ("sync", { try await plugin.sync(.test, account: .test) }),
            ("authorize", { try await plugin.authorize(.test, account: .test) }),
        ]
        var medians: [String: Duration] = [:]
        for (name, call) in flows {
            for _ in 0..<20 {
                _ = try await call()
            }
            var samples: [Duration] = []
            samples.reserveCapacity(Self.calls)
            for _ in 0..<Self.calls {
                let started = ContinuousClock.now
                _ = try await call()
                samples.append(ContinuousClock.now - started)
            }
            samples.sort()
            let p50 = samples[samples.count / 2]
            let p99 = samples[samples.count * 99 / 100]
            medians[name] = p50
            print(
                "plugin call latency (\(isolation.rawValue), \(Self.calls) echo \(name) calls): p50 \(p50), p99 \(p99)")
            #expect(samples.count == Self.calls)
        }
        if let sync = medians["sync"], let authorize = medians["authorize"] {
            print("one http_send adds (\(isolation.rawValue)): p50 \(authorize - sync)")
        }
    }
}
