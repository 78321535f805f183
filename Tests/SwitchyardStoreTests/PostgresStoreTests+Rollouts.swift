import Foundation
import Logging
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardTestSupport
import Testing

@testable import SwitchyardStore

/// Rule strategies as columns (migration 24), and guarded rollouts next to the live routing.
extension PostgresStoreTests {
    @Test func migrationTwentyFourCopiesEachRuleStrategyFromTheLatestSnapshot() async throws {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let pool = try PGPool(
            PostgresConfiguration(connectionString: database.appURL, poolSize: 2), logger: Logger(label: "test"))
        let store = PostgresStore(
            pool: pool, secrets: try SecretBox(key: SecureRandom.bytes(32)), clock: { Date() },
            logger: Logger(label: "test"))
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        let (adaptive, weighted, plain) = (UUID(), UUID(), UUID())
        let snapshot = try StoreJSON.encode([
            RoutingRule(id: adaptive, name: "a", match: .init(), accounts: [], strategy: .adaptive, maxRateLoss: 0.5),
            RoutingRule(id: weighted, name: "w", match: .init(), accounts: [], weights: []),
        ])
        let t = tenant.uuidString.lowercased()
        try await PGPool.scoped(connectionString: database.adminURL, logger: Logger(label: "test")) { admin in
            try await admin.withConnection { c in
                // The rows as written before migration 24: strategy only in the version snapshot (written as
                // the superuser, whom row-level security does not hold).
                try await c.execute("ALTER TABLE routing_rules DROP COLUMN strategy, DROP COLUMN max_rate_loss")
                let match = try StoreJSON.encode(RoutingRule.Match())
                for (position, id, weights) in [(0, adaptive, "NULL"), (1, weighted, "'[1]'"), (2, plain, "NULL")] {
                    try await c.query(
                        """
                        INSERT INTO routing_rules (id, tenant_id, position, name, match, accounts, weights, created_at)
                        VALUES ('\(id.uuidString)', '\(t)', \(position), 'r', $1::jsonb, '[]', \(weights), now())
                        """, [.json(match)])
                }
                try await c.query(
                    "INSERT INTO routing_versions (tenant_id, version, rules, actor, created_at) "
                        + "VALUES ($1::uuid, 1, $2::jsonb, 'test', now())", [.uuid(tenant), .json(snapshot)])
                try await c.execute(RolloutMigrations.ruleStrategyColumns)
            }
        }
        let rules = try await store.routing.routingConfiguration(tenant: tenant).rules
        #expect(rules.map(\.strategy) == [.adaptive, .weighted, .ordered])
        #expect(rules.map(\.maxRateLoss) == [0.5, nil, nil])
        await pool.shutdown()
    }

    @Test func aDraftStandsNextToTheLiveRoutingUntilItIsStopped() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        let live = [RoutingRule(id: UUID(), name: "live", match: .init(), accounts: [UUID()], maxRateLoss: nil)]
        let draft = [
            RoutingRule(
                id: UUID(), name: "draft", match: .init(), accounts: [UUID()], strategy: .adaptive, maxRateLoss: 1)
        ]
        try await store.routing.replaceRoutingRules(tenant: tenant, rules: live, actor: "test")
        let settings = RolloutSettings(share: 0.2, guardrail: 0.03, minSamples: 100, maxDuration: 3_600)
        let rollout = try await store.routing.startRollout(
            tenant: tenant, id: UUID(), rules: draft, settings: settings, actor: "test", expectedVersion: 1)
        #expect(rollout.draftVersion == 2)
        let configuration = try await store.routing.routingConfiguration(tenant: tenant)
        #expect(configuration.version == 1)
        #expect(configuration.rules == live)
        #expect(configuration.rollout?.draftRules == draft)
        #expect(configuration.rollout?.settings == settings)
        await #expect(
            throws: CoreError(
                .rolloutRunning, "a guarded rollout of the routing is running; stop it (or let it end) first")
        ) {
            try await store.routing.replaceRoutingRules(tenant: tenant, rules: draft, actor: "test")
        }
        let ended = try await store.routing.stopRollout(tenant: tenant, actor: "test", at: Date())
        #expect(ended.status == .stopped)
        #expect(ended.liveVersion == 1)
        #expect(try await store.routing.routingConfiguration(tenant: tenant).rollout == nil)
        #expect(try await store.routing.runningRollouts(after: nil, limit: 10).isEmpty)
        let events = try await store.pool.withConnection { c in
            try await c.query("SELECT type, livemode FROM webhook_events ORDER BY livemode").rows.map {
                "\(try $0.string("type")) \(try $0.bool("livemode") ? "live" : "test")"
            }
        }
        #expect(
            events == ["routing.rollout.stopped test", "routing.rollout.stopped live"], "one for each mode's endpoints")
        let replaced = try await store.routing.replaceRoutingRules(tenant: tenant, rules: draft, actor: "test")
        #expect(replaced.version == 3)
    }

    @Test func theJanitorsWalkReachesEveryRunningRolloutAndSkipsOneBeingDecided() async throws {
        let (store, url) = try await makeStoreWithURL()
        let settings = RolloutSettings(share: 0.5, guardrail: 0.03, minSamples: 100, maxDuration: 60)
        var started: [(tenant: UUID, rollout: UUID)] = []
        for name in ["A", "B", "C"] {
            let tenant = try await store.tenants.createTenant(name: name, actor: "test").id
            let rules = [RoutingRule(id: UUID(), name: name, match: .init(), accounts: [UUID()], maxRateLoss: nil)]
            try await store.routing.replaceRoutingRules(tenant: tenant, rules: rules, actor: "test")
            let rollout = try await store.routing.startRollout(
                tenant: tenant, id: UUID(), rules: rules, settings: settings, actor: "test", expectedVersion: nil)
            started.append((tenant, rollout.id))
        }
        // Pages of two, in rollout id order: the third is reached however many run before it.
        let first = try await store.routing.runningRollouts(after: nil, limit: 2)
        let second = try await store.routing.runningRollouts(after: first.last?.rollout, limit: 2)
        let walked = (first + second).map(\.rollout)
        #expect(first.count == 2 && second.count == 1)
        #expect(walked == started.map(\.rollout).sorted { $0.uuidString.lowercased() < $1.uuidString.lowercased() })
        #expect(Set((first + second).map(\.tenant)) == Set(started.map(\.tenant)))

        // Past its maximum duration each is promoted, unless another transaction holds its row.
        let due = Date().addingTimeInterval(120)
        let held = started[0]
        // Another replica's transaction holds the first rollout's row.
        let other = try await PGConnection.open(
            connectionString: url, connectTimeoutSeconds: 5, logger: Logger(label: "test"))
        try await other.execute("BEGIN")
        _ = try await other.query(
            "SELECT 1 FROM routing_rollouts WHERE id = $1::uuid FOR UPDATE", [.uuid(held.rollout)])
        let busy = try await store.routing.decideRollout(tenant: held.tenant, id: held.rollout, now: due)
        try await other.execute("ROLLBACK")
        other.close()
        #expect(busy == nil, "a rollout another replica is deciding is skipped, not waited for")
        for item in started {
            let end = try await store.routing.decideRollout(tenant: item.tenant, id: item.rollout, now: due)
            #expect(end?.status == .promoted)
            #expect(end?.reason == RolloutDecision.Reason.maxDuration.rawValue)
        }
        #expect(try await store.routing.runningRollouts(after: nil, limit: 10).isEmpty)
        #expect(
            try await store.routing.decideRollout(tenant: held.tenant, id: held.rollout, now: due) == nil,
            "decided once")
    }

    /// A payment routed under `rollout` on `arm`, committed with one attempt answered `kind`.
    func routedPayment(
        _ store: PostgresStore, tenant: UUID, id: String, rollout: UUID, arm: RolloutArm, account: UUID,
        _ kind: Outcome.Kind?
    ) async throws {
        var routed = payment(tenant, id: id)
        routed.routing = RoutingDecision(ruleId: UUID(), ruleName: "cards", candidates: [account], skipped: [])
        routed.routing?.arm = arm
        routed.routing?.rolloutId = rollout
        try await store.payments.commit(PaymentChanges(payment: routed))
        if let kind { try await answer(store, tenant: tenant, payment: id, account: account, kind) }
    }

    func answer(_ store: PostgresStore, tenant: UUID, payment: String, account: UUID, _ kind: Outcome.Kind)
        async throws
    {
        try await store.payments.commit(
            PaymentChanges(attempts: [
                answered("att_" + payment, payment: payment, tenant: tenant, account: account, sequence: 1, kind)
            ]))
    }

    @Test func aRolloutCountsTheAnswersOfItsOwnPaymentsOnly() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        let account = UUID()
        let rules = [RoutingRule(id: UUID(), name: "live", match: .init(), accounts: [account], maxRateLoss: nil)]
        try await store.routing.replaceRoutingRules(tenant: tenant, rules: rules, actor: "test")
        let settings = RolloutSettings(share: 0.5, guardrail: 0.03, minSamples: 100, maxDuration: 3_600)
        let first = try await store.routing.startRollout(
            tenant: tenant, id: UUID(), rules: rules, settings: settings, actor: "test", expectedVersion: nil)
        try await routedPayment(
            store, tenant: tenant, id: "pay_first_answered", rollout: first.id, arm: .draft, account: account,
            .authorized)
        // Routed during the first rollout, answered only once the next one runs.
        try await routedPayment(
            store, tenant: tenant, id: "pay_first_late", rollout: first.id, arm: .draft, account: account, nil)
        let stopped = try await store.routing.stopRollout(tenant: tenant, actor: "test", at: Date())
        #expect(stopped.figures.draft == RolloutDecision.Tally(samples: 1, approved: 1))

        let second = try await store.routing.startRollout(
            tenant: tenant, id: UUID(), rules: rules, settings: settings, actor: "test", expectedVersion: nil)
        try await answer(store, tenant: tenant, payment: "pay_first_late", account: account, .declined)
        try await routedPayment(
            store, tenant: tenant, id: "pay_second", rollout: second.id, arm: .control, account: account, .authorized)
        let running = try #require(try await store.routing.runningRollout(tenant: tenant))
        #expect(running.rollout.id == second.id)
        #expect(running.decision.draft == RolloutDecision.Tally(), "the first rollout's late answer does not count")
        #expect(running.decision.control == RolloutDecision.Tally(samples: 1, approved: 1))
        // The ended rollout keeps the figures that decided it, and its curve counts its own payments.
        let ended = try #require(
            try await store.routing.rolloutHistory(tenant: tenant, .lastEnded, buckets: 10, now: Date()))
        #expect(ended.rollout.id == first.id)
        #expect(ended.status == .stopped)
        #expect(ended.reason == "stopped")
        #expect(ended.figures.draft == RolloutDecision.Tally(samples: 1, approved: 1))
        #expect(ended.endedAt != nil)
        let current = try #require(
            try await store.routing.rolloutHistory(tenant: tenant, .current, buckets: 10, now: Date()))
        #expect(current.rollout.id == second.id)
        #expect(current.status == .running)
        #expect(current.series.points.count <= 10)
        #expect(current.series.points.last?.control == RolloutDecision.Tally(samples: 1, approved: 1))
        #expect(current.series.points.last?.draft == RolloutDecision.Tally())
        let byId = try await store.routing.rolloutHistory(tenant: tenant, .id(first.id), buckets: 10, now: Date())
        #expect(byId?.rollout.id == first.id)
        #expect(try await store.routing.rolloutHistory(tenant: tenant, .id(UUID()), buckets: 10, now: Date()) == nil)
        let other = try await store.tenants.createTenant(name: "U", actor: "test").id
        #expect(try await store.routing.rolloutHistory(tenant: other, .current, buckets: 10, now: Date()) == nil)
    }
}
