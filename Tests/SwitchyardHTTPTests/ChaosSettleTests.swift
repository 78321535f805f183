import Foundation
import NIOHTTP1
import ProviderSandbox
import TestWaiting
import Testing

@testable import SwitchyardCore

/// Every payment reaches a definite state on its own: a standalone sandbox failing 30 % of the Citcon
/// account's calls in every way it can, lost notifications, three replicas on one database and one of them
/// killed with SIGKILL mid-run, a client retrying with the same Idempotency-Key elsewhere, the app paying
/// most sessions through the SDK route — then no merchant sync at all, only the janitors, within a bound.
///
/// Environment variables make a longer run of it, e.g. `SWITCHYARD_CHAOS_KILL_EVERY_S=10
/// SWITCHYARD_CHAOS_ORDERS=400`: a replica killed with SIGKILL (each in turn) every that many seconds for as
/// long as the load lasts, and that many orders; by default one kill and 120 orders.
/// `SWITCHYARD_CHAOS_CHARGE_LIFETIME_S=1800` gives Citcon's charges a real session's life, so only the
/// overdue-notification inquiries (not the half-life sweep) can settle a paid order whose IPN was lost.
@Suite(.serialized)
struct ChaosSettleTests {
    static let seed: UInt64 = 0x5157_1c4a_0515
    static let orders = ChaosKills.environmentInt("SWITCHYARD_CHAOS_ORDERS") ?? 120
    /// Seconds between kills; nil: one kill once 40 % of the orders are done.
    static let killEvery = ChaosKills.environmentInt("SWITCHYARD_CHAOS_KILL_EVERY_S")
    /// Few enough that the run does not starve the suites running beside it on a small machine.
    static let workers = 2
    static let providerTimeoutMs = 2_000
    /// Citcon charges wait this long for the app: long enough for the app, short enough that a lost
    /// notification is recovered at half the session life, and an unpaid session ends, within the run.
    static let citconChargeLifetime = ChaosKills.environmentInt("SWITCHYARD_CHAOS_CHARGE_LIFETIME_S") ?? 45
    static let settleBound: Double = 180

    static let policy = """
        {"plugins": {"mode": "development", "allowed": [{"id": "citcon"}, {"id": "antom"}]},
         "limits": {"provider_timeout_ms": \(providerTimeoutMs)},
         "failover": {"time_budget_ms": 10000},
         "breaker": {"failure_threshold": 5, "window_ms": 10000, "cool_down_ms": 1000},
         "janitor": {"schedule_ms": [1000, 2000, 4000], "then_every_ms": 4000, "poll_ms": 500, "batch_size": 50},
         "idempotency": {"lease_ms": 10000}}
        """

    /// The per-order decisions, drawn from the seed before anything runs.
    struct Plan: Sendable {
        var order: ChaosOrder
        var appPays: Bool
        var loseNotification: Bool
        var replayAtOnce: Bool
    }

    /// The amount of order `index`, distinct per flow and always ending in 1, so clear of the sandboxes' magic
    /// endings whatever the number of orders (…402 declines, …408 stays pending with no answer from the wallet,
    /// ever, which would leave a paid order `requires_action` past its session for good).
    static func amount(index: Int, card: Bool) -> Int {
        (card ? 2_001 : 1_101) + 10 * index
    }

    static func plans(_ shop: ChaosShop, run: String, generator: inout SplitMix64) throws -> [Plan] {
        try (0..<orders).map { index in
            let card = index % 5 == 4
            let reference = "chaos-\(run)-\(index)"
            let amount = Self.amount(index: index, card: card)
            let json: [String: Any] =
                card
                ? [
                    "amount": amount, "currency": "SGD", "country": "SG", "reference": reference,
                    "customer": shop.customer, "payment_method": shop.paymentMethod,
                ]
                : ["amount": amount, "currency": "USD", "country": "US", "method": "alipay", "reference": reference]
            let order = ChaosOrder(
                index: index, flow: card ? .antomCard : .citconSession, key: "key-" + reference, reference: reference,
                amount: amount, body: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]))
            return Plan(
                order: order, appPays: generator.next() % 100 < 90, loseNotification: generator.next() % 100 < 25,
                replayAtOnce: generator.next() % 100 < 10)
        }
    }

    /// The Citcon account's faults: 30 % of its calls on every path the plugin and the app use.
    static func faults(citconOrders: Int, generator: inout SplitMix64) -> [ChaosFaultSchedule] {
        let streams: [(String, String, Int)] = [
            ("POST", "/v1/charges", 2 * citconOrders + 40), ("POST", "/v1/access-tokens", citconOrders + 20),
            ("GET", "/v1/transactions", 80), ("POST", "/v1/cancels", 20),
        ]
        return streams.map { method, path, calls in
            ChaosFaultSchedule(
                method: method, pathPrefix: path, merchant: TestStack.citconMerchant.id, calls: calls, percent: 30,
                holdMs: providerTimeoutMs + 1_000, latencyMs: 500, generator: &generator)
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func everyPaymentReachesADefiniteStateWithoutAMerchantSync() async throws {
        let started = Date()
        let platform = try await ChaosPlatform.start(
            replicas: 3, citconChargeLifetime: Self.citconChargeLifetime, policy: Self.policy)
        var settled = false
        do {
            settled = try await run(platform, started: started)
        } catch {
            await platform.stop()
            throw error
        }
        // The logs of the replicas and the sandbox stay for a run that did not settle.
        await platform.stop(keepLogs: !settled)
    }

    /// The run; true when it settled.
    func run(_ platform: ChaosPlatform, started: Date) async throws -> Bool {
        let shop = try await platform.openShop()
        var generator = SplitMix64(seed: Self.seed)
        let plans = try Self.plans(shop, run: String(UUID().uuidString.prefix(6)), generator: &generator)
        let citconOrders = plans.filter { $0.order.flow == .citconSession }.count
        let schedules = Self.faults(citconOrders: citconOrders, generator: &generator)
        let rules = schedules.flatMap(\.rules)
        let added = try await platform.send(
            .POST, platform.sandboxURL + "/_sandbox/citcon/faults", body: try JSONEncoder().encode(rules))
        try #require(added.status == 200, "\(added.text)")
        var kinds: [String: Int] = [:]
        for schedule in schedules { kinds.merge(schedule.counts.map { ($0.key.rawValue, $0.value) }) { $0 + $1 } }
        print("chaos: faults scheduled \(kinds.sorted { $0.key < $1.key }), \(platform.directory)")

        // The run: orders in parallel, one replica killed with SIGKILL and restarted when 40 % are done (or
        // one every `killEvery` seconds while the load lasts).
        let client = ChaosClient(platform: platform, shop: shop)
        let done = LockedState<[ChaosOrder]>([])
        let finishedOrders = Changes()
        let next = LockedState(0)
        let kills = ChaosKills(platform: platform)
        let loadStarted = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.workers {
                group.addTask {
                    while true {
                        let index: Int? = next.withLock { value in
                            guard value < plans.count else { return nil }
                            defer { value += 1 }
                            return value
                        }
                        guard let index else { return }
                        let order = try await Self.drive(plans[index], client: client)
                        done.withLock { $0.append(order) }
                        finishedOrders.notify()
                    }
                }
            }
            group.addTask {
                guard let period = Self.killEvery else {
                    try await finishedOrders.wait("the first orders", within: .seconds(Self.settleBound * 4)) {
                        done.withLock({ $0.count }) >= Self.orders * 2 / 5
                    }
                    try await kills.killAndRestart(1, after: done.withLock { $0.count })
                    return
                }
                try await kills.repeatedly(every: period, done: { done.withLock { $0.count } }, total: Self.orders)
            }
            try await group.waitForAll()
        }
        let orders = done.withLock { $0 }.sorted { $0.index < $1.index }
        let loadSeconds = Date().timeIntervalSince(loadStarted)

        // No merchant sync from here on: only reads, while the janitors work.
        let settleStarted = Date()
        var findings = try await snapshot(platform, shop, orders, history: false)
        // The janitors' progress is read through the API: there is no event to await.
        try await Poll.holds("the run settled", within: .seconds(Self.settleBound), every: .seconds(3)) {
            findings = try await snapshot(platform, shop, orders, history: false)
            return findings.settled
        }
        let settleSeconds = Date().timeIntervalSince(settleStarted)
        findings = try await snapshot(platform, shop, orders, history: true)
        // Every key answers a retry with its payment.
        for order in orders {
            let reply = await client.replay(order, on: order.index + 1)
            if reply?.status == 409 && reply?.errorCode == "idempotency_in_progress" {
                findings.keysInProgress.append(order.key)
            } else if let reply, [200, 201].contains(reply.status), let id = order.paymentId,
                reply.json["id"] as? String != id
            {
                findings.replaysAnsweringAnotherPayment.append(order.key)
            }
        }

        // No key is left in progress once the run has settled: a request the kill cut short had its key
        // freed by the restart, and any other by the janitors once its lease (10 s) had passed.
        var keysInProgress: [String] = []
        try await Poll.holds("no key in progress", within: .seconds(15), every: .seconds(1)) {
            keysInProgress = try await platform.keysInProgress()
            return keysInProgress.isEmpty
        }

        let paid = orders.filter(\.appPaid).count
        let retried = orders.filter { $0.tries > 1 }.count
        let outOfRetries = orders.filter(\.budgetSpent)
        print(
            """
            chaos: \(kills.count) replica kills (SIGKILL); after settling \(keysInProgress.count) keys in progress; \
            \(outOfRetries.count) clients out of retries, \(outOfRetries.filter { $0.heldReplies > 0 }.count) of them \
            answered 409 idempotency_in_progress; \(orders.map(\.heldReplies).reduce(0, +)) such 409s in all; \
            lost / duplicate payments / double charges \(findings.lostPayments.count) / \
            \(findings.duplicatePayments.count) / \(findings.doubleCharges.count)
            """)
        print(
            """
            chaos: \(orders.count) orders (\(citconOrders) Citcon sessions, \(orders.count - citconOrders) Antom cards), \
            \(retried) created after retries (\(orders.map(\.heldReplies).reduce(0, +)) tries held), \
            \(paid) paid by the app, \
            \(orders.filter(\.notificationDropped).count) notifications set to be lost; \
            load \(Int(loadSeconds)) s, settle \(Int(settleSeconds)) s (bound \(Int(Self.settleBound)) s), \
            total \(Int(Date().timeIntervalSince(started))) s
            \(findings.table(label: "this run"))
            """)
        print(ChaosTimeToDefinite(orders: orders, payments: try await platform.waitingOutcomes()).report)
        #expect(orders.allSatisfy { $0.refusal == nil }, "\(orders.compactMap(\.refusal).prefix(3))")
        #expect(
            orders.allSatisfy { !$0.budgetSpent }, "retry budget spent: \(orders.filter(\.budgetSpent).map(\.key))")
        #expect(keysInProgress.isEmpty, "keys still in progress: \(keysInProgress.prefix(5))")
        #expect(findings.unknown.isEmpty, "still unknown: \(findings.unknown.prefix(5))")
        #expect(
            findings.sessionWithoutClientToken.isEmpty,
            "requires_action without client_token: \(findings.sessionWithoutClientToken.prefix(5))")
        #expect(findings.sessionNotLive.isEmpty, "requires_action without a live session: \(findings.sessionNotLive)")
        #expect(findings.keysInProgress.isEmpty, "keys in progress: \(findings.keysInProgress.prefix(5))")
        #expect(findings.stuckProcessing.isEmpty, "stuck processing: \(findings.stuckProcessing.prefix(5))")
        #expect(findings.paidNotSucceeded.isEmpty, "paid, not succeeded: \(findings.paidNotSucceeded.prefix(5))")
        #expect(findings.succeededWithoutCharge.isEmpty, "succeeded, no money: \(findings.succeededWithoutCharge)")
        #expect(findings.doubleCharges.isEmpty, "double charges: \(findings.doubleCharges)")
        #expect(findings.orphanCharges.isEmpty, "orphan charges: \(findings.orphanCharges)")
        #expect(findings.amountMismatches.isEmpty, "amounts: \(findings.amountMismatches)")
        #expect(findings.lostPayments.isEmpty, "lost payments: \(findings.lostPayments.prefix(5))")
        #expect(findings.duplicatePayments.isEmpty, "duplicate payments: \(findings.duplicatePayments)")
        #expect(findings.replaysAnsweringAnotherPayment.isEmpty, "\(findings.replaysAnsweringAnotherPayment)")
        #expect(paid > 0 && retried > 0, "the run exercised the app and the retries")
        if !findings.settled {
            try await printSamples(platform, shop, findings)
            print("chaos: logs in \(platform.directory)")
        }
        return findings.settled
    }

    /// Two payments of every row that is not empty, as the merchant API shows them.
    func printSamples(_ platform: ChaosPlatform, _ shop: ChaosShop, _ findings: ChaosFindings) async throws {
        let rows = [
            ("unknown", findings.unknown), ("without client token", findings.sessionWithoutClientToken),
            ("session not live", findings.sessionNotLive),
            ("session not live, client token handed out", findings.sessionNotLiveWithClientToken),
            ("processing", findings.stuckProcessing),
            ("paid, not succeeded", findings.paidNotSucceeded),
        ]
        for (row, ids) in rows {
            for id in ids.prefix(2) {
                let payment = try await platform.send(
                    .GET, platform.replicaURL(0) + "/v1/payments/\(id)", token: shop.apiKey)
                print("chaos: \(row): \(payment.text.prefix(2500))")
            }
        }
    }

    /// One order: the create (with retries), an immediate replay elsewhere for some, and the app's payment.
    static func drive(_ plan: Plan, client: ChaosClient) async throws -> ChaosOrder {
        var order = plan.order
        guard let payment = await client.create(&order) else { return order }
        order.paymentId = payment["id"] as? String
        order.firstStatus = payment["status"] as? String
        if plan.replayAtOnce, let reply = await client.replay(order, on: order.index + order.tries),
            [200, 201].contains(reply.status)
        {
            order.replayAnsweredAnotherPayment = reply.json["id"] as? String != order.paymentId
        }
        guard order.flow == .citconSession, order.firstStatus == "requires_action" else { return order }
        guard ChaosFindings.hasClientToken(payment) else {
            order.sessionWithoutClientToken = true
            return order
        }
        guard plan.appPays else { return order }
        let data = (payment["next_action"] as? [String: Any])?["data"] as? [String: Any] ?? [:]
        if plan.loseNotification {
            try await client.loseNextNotification()
            order.notificationDropped = true
        }
        order.appPaid = await client.pay(
            clientToken: data["client_token"] as? String ?? "", chargeToken: data["charge_token"] as? String ?? "")
        if order.appPaid { order.paidAt = Date() }
        return order
    }

    /// The payments as the merchant API lists them (read on whichever replica answers) and both ledgers.
    func snapshot(_ platform: ChaosPlatform, _ shop: ChaosShop, _ orders: [ChaosOrder], history: Bool) async throws
        -> ChaosFindings
    {
        var payments: [[String: Any]] = []
        var cursor: String?
        repeat {
            let query =
                "/v1/payments?limit=100&" + PaymentLists.expandAll + (cursor.map { "&starting_after=\($0)" } ?? "")
            let page = try await platform.send(.GET, platform.replicaURL(payments.count) + query, token: shop.apiKey)
            try #require(page.status == 200, "\(page.text)")
            payments += page.json["data"] as? [[String: Any]] ?? []
            cursor = page.json["has_more"] as? Bool == true ? page.json["next_cursor"] as? String : nil
        } while cursor != nil
        let citcon = try await platform.send(.GET, platform.sandboxURL + "/_sandbox/citcon/ledger")
        let antom = try await platform.send(.GET, platform.sandboxURL + "/_sandbox/antom/ledger")
        return ChaosFindings(
            payments: payments.filter { ($0["reference"] as? String)?.hasPrefix("chaos-") == true },
            citconLedger: (try? JSONSerialization.jsonObject(with: citcon.body)) as? [[String: Any]] ?? [],
            antomLedger: (try? JSONSerialization.jsonObject(with: antom.body)) as? [[String: Any]] ?? [],
            orders: orders, history: history, now: Date())
    }
}
