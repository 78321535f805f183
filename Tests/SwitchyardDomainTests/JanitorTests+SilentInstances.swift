import Foundation
import Logging
import SwitchyardCore
import SwitchyardDomainTestSupport
import TestWaiting
import Testing

/// The heartbeat and the silence after which the janitor frees a dead incarnation's keys follow the policy
/// (`idempotency.heartbeat_interval_ms`, `idempotency.silence_limit_ms`), not constants.
struct JanitorSilentInstanceTests {
    /// Records what the janitor and the heartbeat ask of it.
    final class RecordingRegistry: InstanceRegistry, @unchecked Sendable {
        private let lock = NSLock()
        private var silentSinces: [Date] = []
        private var beats = 0

        var asked: [Date] { lock.withLock { silentSinces } }
        var heartbeats: Int { lock.withLock { beats } }

        func startIncarnation(replica: String, now: Date) async throws -> (instance: ServerInstance, released: Int) {
            (ServerInstance(replica: replica, incarnation: 1), 0)
        }

        func heartbeat(_ instance: ServerInstance, now: Date) async throws -> Bool {
            lock.withLock { beats += 1 }
            return true
        }

        func releaseKeysOfSilentInstances(silentSince: Date, except: ServerInstance?, now: Date, limit: Int)
            async throws -> Int
        {
            lock.withLock { silentSinces.append(silentSince) }
            return 0
        }
    }

    static let logger = Logger(label: "silence-test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func theJanitorReleasesTheKeysOfInstancesSilentForThePolicysLimit() async throws {
        let world = DomainWorld()
        let registry = RecordingRegistry()
        let janitor = PaymentJanitor(
            service: world.service, payments: world.payments, clock: world.clock.now, logger: Self.logger,
            instances: (registry, ServerInstance(replica: "r1", incarnation: 1)))
        await janitor.runOnce()
        #expect(registry.asked.last == world.clock.now().addingTimeInterval(-15), "the default: 15 s")

        var policy = PlatformPolicy()
        policy.idempotency.heartbeatIntervalMs = 10_000
        policy.idempotency.silenceLimitMs = 45_000
        world.service.policy.replace(policy)
        await janitor.runOnce()
        #expect(registry.asked.last == world.clock.now().addingTimeInterval(-45))
    }

    @Test func theHeartbeatBeatsAtTheIntervalItIsGiven() async throws {
        let registry = RecordingRegistry()
        let heartbeat = InstanceHeartbeat(
            instance: ServerInstance(replica: "r1", incarnation: 1), registry: registry, clock: { Date() },
            interval: { 0.02 }, logger: Self.logger)
        let running = Task { await heartbeat.run() }
        defer { running.cancel() }
        let beat = try await Poll.holds("four heartbeats", within: .seconds(1.5), every: .milliseconds(10)) {
            registry.heartbeats >= 4
        }
        #expect(beat, "four beats 20 ms apart within 1.5 s")
    }
}
