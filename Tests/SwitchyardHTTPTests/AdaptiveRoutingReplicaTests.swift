import Foundation
import SwitchyardCore
import TestWaiting
import Testing

/// Two replicas on one database decide adaptive routing from the same shared statistics: once both
/// caches have refreshed, the same payment simulated on each gets the same decision.
@Suite(.serialized)
struct AdaptiveRoutingReplicaTests {
    /// The ranking of a simulation, wherever the answer carries it (`decision.ranking` or `ranking`).
    static func ranking(_ answer: [String: Any]) -> [[String: Any]] {
        let decision = answer["decision"] as? [String: Any]
        return decision?["ranking"] as? [[String: Any]] ?? answer["ranking"] as? [[String: Any]] ?? []
    }

    /// What must agree between replicas: the chosen account, the fallbacks, and per ranked account its
    /// position, estimate, samples and reason.
    static func decision(_ answer: [String: Any]) -> String {
        let chosen = (answer["chosen"] as? [String: Any])?["account_id"] as? String ?? "-"
        let fallbacks = (answer["fallbacks"] as? [[String: Any]] ?? []).map { $0["account_id"] as? String ?? "-" }
        let ranked = ranking(answer).map { entry in
            ["account_id", "position", "estimated_rate", "samples", "reason"].map { "\(entry[$0] ?? "nil")" }
                .joined(separator: ",")
        }
        return ([chosen] + fallbacks + ranked).joined(separator: "|")
    }

    /// The operator's simulation of a EUR card payment `reference` on the replica at `base`.
    static func simulate(_ stack: TestStack, tenant: String, base: String, reference: String) async throws
        -> [String: Any]
    {
        let answer = try await stack.send(
            .POST, "/admin/v1/tenants/\(tenant)/routing/simulate", token: stack.operatorToken,
            json: ["amount": 2500, "currency": "EUR", "country": "FR", "method": "card", "reference": reference],
            base: base)
        try #require(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return answer.json
    }

    @Test func theSamePaymentSimulatedOnTwoReplicasGetsTheSameDecision() async throws {
        let policy: @Sendable (inout PlatformPolicy) -> Void = { policy in
            AdaptiveRoutingExperimentTests.scaledPolicy(&policy)
            policy.adaptiveRouting.statsCacheMs = 1_000
        }
        try await TestStack.with(policy: policy) { stack in
            // Statistics for both accounts, written through the first replica.
            let report = try await AdaptiveRoutingExperimentTests.runBench(
                stack,
                [
                    "--experiments", "adaptive", "--phase-payments", "60", "--window", "20", "--recovery-limit", "20",
                    "--in-flight", "2",
                ])
            let tenant = try #require(report["tenant_id"] as? String)
            let simulate: @Sendable (String, String) async throws -> [String: Any] = { base, reference in
                try await Self.simulate(stack, tenant: tenant, base: base, reference: reference)
            }
            try await ConfigurationCacheReplicaTests.withSecondReplica(stack) { _, replicaURL in
                // Poll until both replicas' caches hold the statistics written last (bounded, not a sleep
                // standing in for an assertion).
                var first: [String: Any] = [:]
                var second: [String: Any] = [:]
                try await Poll.holds("both replicas deciding alike", within: .seconds(30), every: .milliseconds(100)) {
                    first = try await simulate(stack.baseURL, "same-payment")
                    second = try await simulate(replicaURL, "same-payment")
                    return Self.decision(first) == Self.decision(second)
                }
                #expect(Self.decision(first) == Self.decision(second))
                let ranked = Self.ranking(first)
                #expect(ranked.count == 2, "an adaptive decision ranks both accounts: \(first)")
                #expect(ranked.allSatisfy { ($0["samples"] as? Int ?? 0) > 0 }, "both ranked from statistics")
                #expect(ranked.contains { $0["estimated_rate"] is NSNumber })
                // Every other payment agrees too, including those an exploration draw routes.
                for index in 0..<20 {
                    let reference = "replica-\(index)"
                    let one = try await simulate(stack.baseURL, reference)
                    let other = try await simulate(replicaURL, reference)
                    #expect(Self.decision(one) == Self.decision(other), "\(reference)")
                }
            }
        }
    }
}
