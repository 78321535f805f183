import Foundation
import Logging
import SwitchyardCore
import SwitchyardDomainTestSupport
import Synchronization
import Testing

/// The janitor's rollout step through a database outage: a rollout that falls due while the database cannot
/// be reached is neither lost, nor ended, nor changed; the janitor backs off and decides it, once, on the
/// first look after the database answers again.
struct JanitorRolloutTests {
    /// A storage failure saying the database cannot be reached, as PostgreSQL's is.
    struct Down: StorageFailure {
        var isBusy: Bool { false }
        var isUnavailable: Bool { true }
        var isUnstorableText: Bool { false }
        var description: String { "database unreachable" }
    }

    /// Running rollouts kept in memory and decided by ``RolloutDecision``, failing while `outage` is down.
    final class Rollouts: RolloutRepository {
        typealias Running = (rollout: RoutingRollout, control: RolloutDecision.Tally, draft: RolloutDecision.Tally)

        struct State {
            var running: [UUID: Running]
            var ended: [RolloutEnd] = []
            var looks = 0
            /// Tenants whose rollout fails to be decided with an error of its own.
            var failing: Set<UUID> = []
        }

        let outage: InMemoryOutage
        let state = Mutex(State(running: [:]))

        init(outage: InMemoryOutage) { self.outage = outage }

        func startRollout(
            tenant: UUID, id: UUID, rules: [RoutingRule], settings: RolloutSettings, actor: String,
            expectedVersion: Int?
        ) async throws -> RoutingRollout {
            throw Down()
        }

        func runningRollout(tenant: UUID) async throws -> (rollout: RoutingRollout, decision: RolloutDecision)? {
            if outage.isDown { throw Down() }
            return state.withLock { state in
                state.running[tenant].map { running in
                    (running.rollout, Self.decision(running, now: running.rollout.startedAt))
                }
            }
        }

        func stopRollout(tenant: UUID, actor: String, at now: Date) async throws -> RolloutEnd {
            throw Down()
        }

        func rolloutHistory(tenant: UUID, _ selection: RolloutSelection, buckets: Int, now: Date) async throws
            -> RolloutHistory?
        {
            throw Down()
        }

        func runningRollouts(after: UUID?, limit: Int) async throws -> [(tenant: UUID, rollout: UUID)] {
            state.withLock { $0.looks += 1 }
            if outage.isDown { throw Down() }
            return state.withLock { state in
                let all = state.running.map { (tenant: $0.key, rollout: $0.value.rollout.id) }
                    .sorted { $0.rollout.uuidString < $1.rollout.uuidString }
                return Array(all.filter { after == nil || $0.rollout.uuidString > after!.uuidString }.prefix(limit))
            }
        }

        func decideRollout(tenant: UUID, id: UUID, now: Date) async throws -> RolloutEnd? {
            if outage.isDown { throw Down() }
            if state.withLock({ $0.failing.contains(tenant) }) { throw CoreError(.internalError, "broken rollout") }
            return state.withLock { state in
                guard let running = state.running[tenant], running.rollout.id == id else { return nil }
                let decision = Self.decision(running, now: now)
                let status: RolloutStatus
                let reason: RolloutDecision.Reason
                switch decision.action {
                case .continue: return nil
                case .promote(let why): (status, reason) = (.promoted, why)
                case .rollBack(let why): (status, reason) = (.rolledBack, why)
                }
                state.running[tenant] = nil
                let end = RolloutEnd(
                    tenant: tenant, rollout: running.rollout, status: status, reason: reason.rawValue,
                    figures: decision.figures, liveVersion: running.rollout.draftVersion)
                state.ended.append(end)
                return end
            }
        }

        static func decision(_ running: Running, now: Date) -> RolloutDecision {
            RolloutDecision(
                settings: running.rollout.settings, startedAt: running.rollout.startedAt, control: running.control,
                draft: running.draft, now: now)
        }
    }

    @Test func aRolloutDueDuringAnOutageIsDecidedOnceWhenTheDatabaseAnswers() async throws {
        let world = DomainWorld()
        let rollouts = Rollouts(outage: world.payments.outage)
        let janitor = PaymentJanitor(
            service: world.service, payments: world.payments, clock: world.clock.now,
            logger: Logger(label: "rollouts-test", factory: { _ in SwiftLogNoOpLogHandler() }), rollouts: rollouts)
        let rollout = RoutingRollout(
            id: UUID(),
            settings: RolloutSettings(share: 0.1, guardrail: 0.02, minSamples: 1_000, maxDuration: 3_600),
            draftVersion: 2, draftRules: [], startedAt: world.clock.date, actor: "admin")
        let tallies = (
            control: RolloutDecision.Tally(samples: 40, approved: 36),
            draft: RolloutDecision.Tally(samples: 5, approved: 5)
        )
        rollouts.state.withLock { $0.running[world.tenant] = (rollout, tallies.control, tallies.draft) }

        await janitor.runOnce()
        #expect(rollouts.state.withLock { $0.ended.isEmpty }, "within its duration and sample: it runs on")

        world.payments.outage.set(down: true)
        world.clock.advance(2 * 3_600)
        var pauses: [Int] = []
        for _ in 0..<4 {
            #expect(await janitor.runOnce() == 0)
            pauses.append(janitor.outage.pauseMs(normal: 100))
        }
        #expect(pauses == [1_000, 2_000, 4_000, 8_000], "the janitor backs off while the database is away")
        #expect(janitor.outage.isOngoing)
        let kept = rollouts.state.withLock { $0.running[world.tenant] }
        #expect(kept?.rollout == rollout, "the rollout is neither ended nor changed by the outage")
        #expect(kept?.control == tallies.control && kept?.draft == tallies.draft)
        #expect(rollouts.state.withLock { $0.ended.isEmpty })

        world.payments.outage.set(down: false)
        world.clock.advance(1)
        await janitor.runOnce()
        #expect(!janitor.outage.isOngoing)
        let ended = rollouts.state.withLock { $0.ended }
        #expect(ended.count == 1)
        #expect(ended.first?.status == .promoted)
        #expect(ended.first?.reason == RolloutDecision.Reason.maxDuration.rawValue)
        let elapsed = try #require(ended.first?.figures.elapsedSeconds)
        #expect(abs(elapsed - 7_201) < 1e-6, "decided as of the look that could")
        #expect(ended.first?.figures.draft == tallies.draft)

        await janitor.runOnce()
        #expect(rollouts.state.withLock { $0.ended.count } == 1, "decided once")
    }

    @Test func aRolloutStoreFailingAloneNeitherStopsTheJanitorNorEndsTheRollout() async throws {
        let world = DomainWorld()
        let outage = InMemoryOutage()
        let rollouts = Rollouts(outage: outage)
        let janitor = PaymentJanitor(
            service: world.service, payments: world.payments, clock: world.clock.now,
            logger: Logger(label: "rollouts-test", factory: { _ in SwiftLogNoOpLogHandler() }), rollouts: rollouts)
        let rollout = RoutingRollout(
            id: UUID(), settings: RolloutSettings(share: 0.5, guardrail: 0.02, minSamples: 1_000, maxDuration: 60),
            draftVersion: 3, draftRules: [], startedAt: world.clock.date, actor: "admin")
        rollouts.state.withLock { $0.running[world.tenant] = (rollout, .init(), .init()) }
        outage.set(down: true)
        world.clock.advance(120)
        for _ in 0..<3 { await janitor.runOnce() }
        #expect(rollouts.state.withLock { $0.looks } == 3, "every look tries again")
        #expect(rollouts.state.withLock { $0.running[world.tenant]?.rollout } == rollout)
        outage.set(down: false)
        await janitor.runOnce()
        #expect(rollouts.state.withLock { $0.ended.map(\.rollout.id) } == [rollout.id])
    }

    @Test func oneLookWalksEveryRunningRolloutPastTheBatchAndPastOneThatFails() async throws {
        let world = DomainWorld()
        var policy = PlatformPolicy()
        policy.janitor.batchSize = 2
        world.service.policy.replace(policy)
        let rollouts = Rollouts(outage: InMemoryOutage())
        let janitor = PaymentJanitor(
            service: world.service, payments: world.payments, clock: world.clock.now,
            logger: Logger(label: "rollouts-test", factory: { _ in SwiftLogNoOpLogHandler() }), rollouts: rollouts)
        let tenants = (0..<5).map { _ in UUID() }
        rollouts.state.withLock { state in
            for tenant in tenants {
                let rollout = RoutingRollout(
                    id: UUID(),
                    settings: RolloutSettings(share: 0.5, guardrail: 0.02, minSamples: 1_000, maxDuration: 60),
                    draftVersion: 2, draftRules: [], startedAt: world.clock.date, actor: "admin")
                state.running[tenant] = (rollout, .init(), .init())
            }
            state.failing = [tenants[0]]
        }
        world.clock.advance(120)
        await janitor.runOnce()
        let (ended, running) = rollouts.state.withLock { (Set($0.ended.map(\.tenant)), Set($0.running.keys)) }
        #expect(ended == Set(tenants.dropFirst()), "all four others ended in one look, two per page")
        #expect(running == [tenants[0]], "the failing one stays running and is tried again")
        #expect(rollouts.state.withLock { $0.looks } == 3, "three pages: 2, 2 and 1")
    }
}
