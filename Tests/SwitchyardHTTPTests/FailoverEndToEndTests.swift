import Foundation
import ProviderSandbox
import SwitchyardCluster
import SwitchyardCore
import SwitchyardStore
import TestWaiting
import Testing

/// Routing, failover and outcome safety against the Antom sandbox with fault injection: two Antom
/// accounts A and B of one tenant (merchants whose wallet users approve at once), one rule → [A, B].
@Suite(.serialized)
struct FailoverEndToEndTests {
    static let clientA = TestStack.antomInstantClients[0]
    static let clientB = TestStack.antomInstantClients[1]
    static let createSessionPath = "/ams/sandbox/api/v1/payments/createPaymentSession"

    struct Pair {
        var merchant: TestStack.Merchant
        var a: String
        var b: String
    }

    /// A tenant with accounts A (at `aBaseURL`, default the sandbox) and B, and the rule PHP wallets → [A, B].
    static func pair(_ stack: TestStack, aBaseURL: String? = nil, weights: [Int]? = nil) async throws -> Pair {
        let merchant = try await stack.merchant(
            name: "Failover Shop", account: try await stack.antomAccountBody(clientId: clientA, baseURL: aBaseURL),
            match: ["currencies": ["PHP"]])
        let b = try await stack.addAccount(
            tenantId: merchant.tenantId, try await stack.antomAccountBody(clientId: clientB))
        var rule: [String: Any] = [
            "name": "pesos", "match": ["currencies": ["PHP"], "methods": ["gcash"]],
            "accounts": [merchant.accountId, b],
        ]
        if let weights { rule["weights"] = weights }
        let routing = try await stack.send(
            .PUT, "/admin/v1/tenants/\(merchant.tenantId)/routing", token: stack.operatorToken,
            json: ["rules": [rule]])
        try #require(routing.status == 200, "\(String(decoding: routing.body, as: UTF8.self))")
        return Pair(merchant: merchant, a: merchant.accountId, b: b)
    }

    static func pay(_ stack: TestStack, _ pair: Pair, amount: Int = 1000, reference: String) async throws
        -> [String: Any]
    {
        try await stack.createPayment(
            pair.merchant,
            ["amount": amount, "currency": "PHP", "country": "PH", "method": "gcash", "reference": reference])
    }

    static func attempts(_ payment: [String: Any]) -> [[String: Any]] {
        payment["attempts"] as? [[String: Any]] ?? []
    }

    static func fastJanitor(_ policy: inout PlatformPolicy) {
        policy.janitor.scheduleMs = [300]
        policy.janitor.thenEveryMs = 300
        policy.janitor.pollMs = 100
    }

    @Test func aProviderRefusingConnectionsFailsOverAndOnlyBCharges() async throws {
        try await TestStack.with { stack in
            let closed = "http://127.0.0.1:\(PostgresCluster.freePort())/antom"
            let pair = try await Self.pair(stack, aBaseURL: closed)
            let created = try await Self.pay(stack, pair, reference: "refused-1")
            let id = try #require(created["id"] as? String)
            let done = try await stack.waitForPayment(id, key: pair.merchant.apiKey) {
                $0["status"] as? String == "succeeded"
            }
            let attempts = Self.attempts(done)
            #expect(attempts.count == 2)
            #expect(attempts.first?["outcome"] as? String == "notSent", "\(attempts)")
            #expect(attempts.map { $0["provider_account"] as? String } == [pair.a, pair.b])
            #expect((attempts.last?["reason"] as? String)?.hasPrefix("failover") == true)
            #expect(await stack.sandbox.antom.ledger(merchant: Self.clientA).isEmpty)
            let charges = await stack.sandbox.antom.ledger(merchant: Self.clientB).filter { $0.kind == "charge" }
            #expect(charges.count == 1)
            #expect(charges.first?.paymentId == attempts.last?["provider_payment_id"] as? String)
        }
    }

    @Test func aTimeoutAfterChargingIsUnknownNeverTriesBAndTheJanitorResolvesIt() async throws {
        try await TestStack.with(providerTimeoutMs: 1_000, policy: Self.fastJanitor) { stack in
            let pair = try await Self.pair(stack)
            await stack.sandbox.antom.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST", pathPrefix: Self.createSessionPath,
                    merchant: Self.clientA, count: 1, latencyMs: 3_000),
                // Without notifications only a sync can learn the outcome: the janitor's.
                SandboxFault(kind: .dropNotification, merchant: Self.clientA),
            ])
            let created = try await Self.pay(stack, pair, reference: "timeout-1")
            let id = try #require(created["id"] as? String)
            #expect(created["status"] as? String == "unknown", "\(created)")
            #expect(Self.attempts(created).count == 1)
            let done = try await stack.waitForPayment(id, key: pair.merchant.apiKey, seconds: 15) {
                $0["status"] as? String == "succeeded"
            }
            #expect(Self.attempts(done).map { $0["provider_account"] as? String } == [pair.a], "B is never called")
            #expect(await stack.sandbox.antom.ledger(merchant: Self.clientB).isEmpty)
            #expect(await stack.sandbox.antom.ledger(merchant: Self.clientA).filter { $0.kind == "charge" }.count == 1)
        }
    }

    @Test func aDeclineIsNotFailedOver() async throws {
        try await TestStack.with { stack in
            let pair = try await Self.pair(stack)
            let created = try await Self.pay(stack, pair, amount: 1402, reference: "decline-1")
            let id = try #require(created["id"] as? String)
            let done = try await stack.waitForPayment(id, key: pair.merchant.apiKey) {
                $0["status"] as? String == "failed"
            }
            #expect((done["failure"] as? [String: Any])?["code"] as? String == "USER_BALANCE_NOT_ENOUGH", "\(done)")
            #expect(Self.attempts(done).count == 1)
            #expect(await stack.sandbox.antom.ledger().isEmpty)
            #expect(await stack.sandbox.antom.ledger(merchant: Self.clientB).isEmpty)
        }
    }

    @Test func anUnresolvedPaymentGoesToManualReviewAndIsNeverMarkedFailed() async throws {
        try await TestStack.with(
            providerTimeoutMs: 1_000,
            policy: { policy in
                Self.fastJanitor(&policy)
                policy.janitor.horizonMs = 1_500
            }
        ) { stack in
            let pair = try await Self.pair(stack)
            await stack.sandbox.antom.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST", pathPrefix: Self.createSessionPath,
                    merchant: Self.clientA, count: 1, latencyMs: 3_000),
                SandboxFault(kind: .dropNotification, merchant: Self.clientA),
                SandboxFault(kind: .http500, pathPrefix: "/ams/sandbox/api/v1/payments/inquiryPayment"),
            ])
            let created = try await Self.pay(stack, pair, reference: "review-1")
            let id = try #require(created["id"] as? String)
            var listed: [[String: Any]] = []
            try await Poll.holds("a review item", within: .seconds(15), every: .milliseconds(200)) {
                let review = try await stack.send(.GET, "/admin/v1/payments/review", token: stack.operatorToken)
                listed = review.json["data"] as? [[String: Any]] ?? []
                return !listed.isEmpty
            }
            #expect(listed.map { $0["id"] as? String } == [id])
            #expect((listed.first?["syncs"] as? Int ?? 0) >= 2, "synced on the schedule before giving up")
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: pair.merchant.apiKey)
            #expect(payment.json["status"] as? String == "unknown")
        }
    }

    @Test func openBreakersMakeTheRouteUnavailable() async throws {
        try await TestStack.with(policy: { policy in
            policy.breaker.failureThreshold = 2
            policy.breaker.coolDownMs = 60_000
        }) { stack in
            let closed = "http://127.0.0.1:\(PostgresCluster.freePort())/antom"
            let merchant = try await stack.merchant(
                name: "Lonely", account: try await stack.antomAccountBody(clientId: Self.clientA, baseURL: closed),
                match: ["currencies": ["PHP"], "methods": ["gcash"]])
            for n in 0..<2 {
                let failed = try await stack.createPayment(
                    merchant,
                    ["amount": 1000, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "o-\(n)"])
                #expect(failed["status"] as? String == "failed")
            }
            let refused = try await stack.send(
                .POST, "/v1/payments", token: merchant.apiKey,
                json: ["amount": 1000, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "o-3"])
            #expect(refused.status == 503)
            #expect(refused.errorCode == "providers_unavailable")
            let health = try await stack.send(.GET, "/admin/v1/providers/health", token: stack.operatorToken)
            let entry = (health.json["data"] as? [[String: Any]] ?? []).first {
                $0["account_id"] as? String == merchant.accountId
            }
            #expect(entry?["state"] as? String == "open")
            #expect(entry?["times_opened"] as? Int == 1)
        }
    }
}

extension FailoverEndToEndTests {
    /// 500 payments with 30 % of A's calls answered "unavailable, not processed": every payment ends with a
    /// definite answer, A's breaker opens and closes again, and every ledger reconciles with the database.
    @Test func fiveHundredPaymentsThroughAFlakyProviderReconcile() async throws {
        try await TestStack.with(policy: { policy in
            policy.breaker.failureThreshold = 3
            policy.breaker.windowMs = 10_000
            policy.breaker.coolDownMs = 200
        }) { stack in
            let pair = try await Self.pair(stack)
            await stack.sandbox.antom.addFaults([
                SandboxFault(
                    kind: .unavailable, pathPrefix: Self.createSessionPath, merchant: Self.clientA, probability: 0.3)
            ])
            let total = 500
            let ids = try await withThrowingTaskGroup(of: [String].self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var ids: [String] = []
                        for n in stride(from: worker, to: total, by: 8) {
                            let created = try await Self.pay(stack, pair, amount: 500 + n, reference: "load-\(n)")
                            ids.append(try #require(created["id"] as? String))
                        }
                        return ids
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(Set(ids).count == total)
            var finals: [[String: Any]] = []
            for id in ids {
                finals.append(
                    try await stack.waitForPayment(id, key: pair.merchant.apiKey, seconds: 30) {
                        ["succeeded", "failed", "canceled"].contains($0["status"] as? String ?? "")
                    })
            }
            let succeeded = finals.filter { $0["status"] as? String == "succeeded" }
            #expect(succeeded.count == total, "B never fails, so every payment succeeds somewhere")
            let failedOver = finals.filter { Self.attempts($0).first?["outcome"] as? String == "notSent" }
            #expect(!failedOver.isEmpty)

            // Reconcile: one charge per succeeded payment, at the account of its last attempt, and nothing else.
            let accountClient = [pair.a: Self.clientA, pair.b: Self.clientB]
            let ledger = await stack.sandbox.antom.ledger().filter {
                $0.merchant == Self.clientA || $0.merchant == Self.clientB
            }
            #expect(ledger.allSatisfy { $0.kind == "charge" })
            #expect(ledger.count == succeeded.count, "no double charge, no lost charge")
            var charged = Dictionary(grouping: ledger, by: { "\($0.merchant)/\($0.paymentId)" })
            for payment in succeeded {
                let last = try #require(Self.attempts(payment).last)
                let client = try #require(accountClient[last["provider_account"] as? String ?? ""])
                let key = "\(client)/\(last["provider_payment_id"] as? String ?? "-")"
                #expect(charged[key]?.count == 1, "payment \(payment["id"] ?? "-") charged once at \(client)")
                #expect(charged[key]?.first?.amount == Int64(payment["amount"] as? Int ?? -1))
                charged[key] = nil
            }
            #expect(charged.isEmpty, "every charge belongs to a succeeded payment")

            let health = try await stack.send(.GET, "/admin/v1/providers/health", token: stack.operatorToken)
            let a = (health.json["data"] as? [[String: Any]] ?? []).first { $0["account_id"] as? String == pair.a }
            #expect((a?["times_opened"] as? Int ?? 0) >= 1, "A's breaker opened: \(a ?? [:])")
            #expect((a?["times_closed"] as? Int ?? 0) >= 1, "and closed again: \(a ?? [:])")
        }
    }
}
