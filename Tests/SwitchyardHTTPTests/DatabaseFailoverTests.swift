import Foundation
import Logging
import NIOHTTP1
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting
import Testing

/// A PostgreSQL failover under load: three `switchyard serve` replicas on a multi-host URL
/// (`target_session_attrs=read-write`) naming a primary and its synchronous standby, a standalone sandbox,
/// merchants' servers sending card payments and refunds with Idempotency-Keys and retrying 503s elsewhere
/// with the same key. Mid-run the primary is stopped as a crash would stop it and the standby promoted.
/// Nothing acknowledged is lost, nothing is charged or refunded twice, only 503s answer the outage, every
/// payment settles on its own, every replica serves again within a bound and no key stays in progress;
/// afterwards `migrate` and every replica's configuration listener work against the promoted node.
@Suite(.serialized)
struct DatabaseFailoverTests {
    static let orders = 96
    static let workers = 3
    /// The primary is stopped once this many orders are done.
    static let crashAfter = 24
    /// How long the database is down before the standby is promoted.
    static let outageSeconds = 2
    /// Generous: the figure measured is printed; the bound only catches a replica that never recovers.
    static let recoveryBound: Double = 30
    static let settleBound: Double = 120
    static let leaseMs = 5_000
    static let finalPaymentStatuses: Set<String> = ["succeeded", "failed", "canceled"]
    static let finalRefundStatuses: Set<String> = ["succeeded", "failed"]

    static let policy = """
        {"plugins": {"mode": "development", "allowed": [{"id": "citcon"}, {"id": "antom"}]},
         "limits": {"provider_timeout_ms": 5000},
         "janitor": {"schedule_ms": [1000, 2000, 4000], "then_every_ms": 4000, "poll_ms": 500, "batch_size": 50},
         "idempotency": {"lease_ms": \(leaseMs)},
         "cache": {"ttl_ms": 60000}}
        """

    static var logger: Logger {
        var logger = Logger(label: "switchyard.test.failover")
        logger.logLevel = .warning
        return logger
    }

    @Test(.timeLimit(.minutes(8)))
    func acknowledgedWritesSurviveAPrimaryCrashAndEveryReplicaServesAgain() async throws {
        let pair = try await TestReplicatedPostgres.start()
        defer { pair.stop() }
        let database = try await pair.switchyardDatabase()
        let platform = try await ChaosPlatform.start(
            replicas: 3, citconChargeLifetime: 300, policy: Self.policy, databaseURL: database.appURL)
        do {
            try await run(pair, database: database.name, platform)
            try await followersFollowThePromotedPrimary(
                platform, ownerURL: database.ownerURL, adminURL: pair.standby.connectionString(database: database.name))
        } catch {
            print("failover: logs in \(platform.directory)")
            await platform.stop()
            throw error
        }
        await platform.stop(keepLogs: false)
    }

    func run(_ pair: TestReplicatedPostgres, database: String, _ platform: ChaosPlatform) async throws {
        let shop = try await platform.openShop()
        let load = FailoverLoad(platform: platform, shop: shop)
        let run = String(UUID().uuidString.prefix(6))
        let done = LockedState<[FailoverOrder]>([])
        let finishedOrders = Changes()
        let next = LockedState(0)
        let started = Date()
        let ready = try await withThrowingTaskGroup(of: [Int: Double].self) { group in
            for _ in 0..<Self.workers {
                group.addTask {
                    while let index = next.withLock({ value -> Int? in
                        guard value < Self.orders else { return nil }
                        defer { value += 1 }
                        return value
                    }) {
                        var order = try load.order(index, run: run)
                        try await load.drive(&order)
                        done.withLock { $0.append(order) }
                        finishedOrders.notify()
                    }
                    return [:]
                }
            }
            group.addTask {
                try await finishedOrders.wait("the orders before the crash", within: .seconds(300)) {
                    done.withLock({ $0.count }) >= Self.crashAfter
                }
                try await pair.crashPrimary()
                let crashed = Date()
                print("failover: primary stopped (immediate) after \(done.withLock { $0.count }) orders")
                // Time is the subject: the outage lasts this long before the standby is promoted.
                try await Task.sleep(for: .seconds(Self.outageSeconds))
                try await pair.promoteStandby()
                let promoted = Date()
                load.promotedAt.withLock { $0 = promoted }
                let outage = promoted.timeIntervalSince(crashed)
                print(String(format: "failover: standby promoted %.1f s after the crash", outage))
                return await withTaskGroup(of: (Int, Double?).self) { probes in
                    for index in platform.ports.indices {
                        probes.addTask {
                            (index, await load.secondsUntilReady(index, since: promoted, bound: 2 * Self.recoveryBound))
                        }
                    }
                    var seconds: [Int: Double] = [:]
                    for await (index, figure) in probes { seconds[index] = figure }
                    return seconds
                }
            }
            var ready: [Int: Double] = [:]
            for try await figures in group { ready.merge(figures) { $1 } }
            return ready
        }
        let orders = done.withLock { $0 }.sorted { $0.order.index < $1.order.index }
        let loadSeconds = Date().timeIntervalSince(started)
        let promoted = try #require(load.promotedAt.withLock { $0 })
        let firstWrites = load.firstWriteAfterPromotion.withLock { $0 }
        for index in platform.ports.indices {
            let readyText = ready[index].map { String(format: "%.1f s", $0) } ?? "not within the bound"
            let write = firstWrites[index].map { String(format: "%.1f s", $0.timeIntervalSince(promoted)) }
            print(
                "failover: replica \(index) ready \(readyText) after the promotion, first write acknowledged "
                    + "\(write ?? "none")")
        }
        let statuses = load.statuses.withLock { $0 }
        print(
            "failover: \(orders.count) orders in \(Int(loadSeconds)) s, answers by status "
                + statuses.sorted { $0.key < $1.key }.map { "\($0.key == 0 ? "error" : "\($0.key)") \($0.value)" }
                .joined(separator: ", "))

        // No merchant action from here on: the payments settle on their own (read on the new primary).
        let admin = pair.standby.connectionString(database: database)
        var store = try await StoreSnapshot.read(admin)
        // The janitors' progress is read from the database: asked again until the store has settled.
        try await Poll.holds("the store settled", within: .seconds(Self.settleBound), every: .seconds(2)) {
            store = try await StoreSnapshot.read(admin)
            return store.settled(orders)
        }
        // Any key an interrupted request held is freed once its lease has passed.
        try await Poll.holds("the keys freed", within: .milliseconds(Self.leaseMs + 3_000), every: .milliseconds(250)) {
            store = try await StoreSnapshot.read(admin)
            return store.keysInProgress.isEmpty
        }
        let (findings, refunds) = try await ledgers(platform, shop, orders)
        print(findings.table(label: "database failover"))
        let refundStatuses = Dictionary(grouping: store.refunds.values, by: { $0 }).mapValues(\.count)
        print("failover: refunds by status \(refundStatuses.sorted { $0.key < $1.key })")

        #expect(orders.count == Self.orders)
        #expect(orders.allSatisfy { $0.refusal == nil }, "\(orders.compactMap(\.refusal).prefix(3))")
        #expect(!store.inRecovery, "the promoted standby is still in recovery")
        let acknowledgedPayments = Set(orders.compactMap(\.order.paymentId))
        let acknowledgedRefunds = Set(orders.compactMap(\.refundId))
        #expect(acknowledgedPayments.count == Self.orders)
        #expect(acknowledgedRefunds.count > Self.orders / 2, "most payments succeeded at once and were refunded")
        #expect(acknowledgedPayments.subtracting(store.payments.keys).isEmpty, "acknowledged payments lost")
        #expect(acknowledgedRefunds.subtracting(store.refunds.keys).isEmpty, "acknowledged refunds lost")
        #expect(store.unsettled.isEmpty, "not final after \(Int(Self.settleBound)) s: \(store.unsettled.prefix(5))")
        #expect(store.paymentsRefundedTwice.isEmpty, "several refunds: \(store.paymentsRefundedTwice)")
        #expect(store.keysInProgress.isEmpty, "keys in progress after the lease: \(store.keysInProgress.prefix(5))")
        #expect(findings.doubleCharges.isEmpty, "double charges: \(findings.doubleCharges)")
        #expect(findings.orphanCharges.isEmpty, "orphan charges: \(findings.orphanCharges)")
        #expect(findings.amountMismatches.isEmpty, "amounts: \(findings.amountMismatches)")
        #expect(findings.lostPayments.isEmpty, "lost payments: \(findings.lostPayments.prefix(5))")
        #expect(findings.duplicatePayments.isEmpty, "duplicate payments: \(findings.duplicatePayments)")
        #expect(refunds.values.allSatisfy { $0 == 1 }, "refunded twice: \(refunds.filter { $0.value > 1 })")
        // A refund whose provider call a crash prevented may end `failed`, with no money moved.
        let succeededRefunds = store.refunds.values.filter { $0 == "succeeded" }.count
        #expect(refunds.count == succeededRefunds, "one provider refund per succeeded refund")
        let serverErrors = statuses.filter { $0.key >= 500 && $0.key != 503 }
        #expect(serverErrors.isEmpty, "5xx other than 503: \(serverErrors)")
        #expect((statuses[503] ?? 0) > 0, "the outage was seen by the clients")
        for index in platform.ports.indices {
            let seconds = try #require(ready[index], "replica \(index) never ready again")
            #expect(seconds <= Self.recoveryBound, "replica \(index) ready after \(seconds) s")
            #expect(firstWrites[index] != nil, "replica \(index) acknowledged no write after the promotion")
        }
    }
}
