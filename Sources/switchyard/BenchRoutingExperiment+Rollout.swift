import Foundation
import SwitchyardBench
import SwitchyardCommands

/// The rollout experiment: a bad draft (live B, draft A, which the sandbox declines far more often) that
/// the platform must roll back, and a good one (live A, draft B) that it must promote. Each runs on a
/// tenant of its own, so no answer of one rollout is counted for the other; the decision and its figures
/// are read from the rollout's event.
extension BenchRoutingExperiment {
    func rollouts() async throws -> [BenchRoutingReport.Rollout] {
        try await setDecline(sandbox.merchantA.merchantId, settings.declineA)
        try await setDecline(sandbox.merchantB.merchantId, settings.declineB)
        let bad = try await rollout("bad draft", live: .b, draft: .a, expected: "rolled_back")
        let good = try await rollout("good draft", live: .a, draft: .b, expected: "promoted")
        return [bad, good]
    }

    /// Starts a rollout from `live` to `draft` on a new tenant and sends payments a batch at a time until
    /// the janitor ends it or `rolloutLimit` payments were sent (then it is stopped).
    private func rollout(
        _ name: String, live: BenchRoutingPayment.Side, draft: BenchRoutingPayment.Side, expected: String
    ) async throws -> BenchRoutingReport.Rollout {
        let shop = try await shop("Routing rollout (\(name))")
        let routing = "/admin/v1/tenants/\(shop.tenantId)/routing"
        func rules(_ side: BenchRoutingPayment.Side) -> [[String: Any]] {
            [["name": "cards", "match": Self.cards, "accounts": [shop.account(side)]]]
        }
        _ = try await admin(.PUT, routing, ["rules": rules(live)])
        let started = try await admin(
            .PUT, routing,
            [
                "rules": rules(draft),
                "rollout": [
                    "share": settings.rolloutShare, "guardrail_pp": settings.guardrailPP,
                    "min_samples": settings.rolloutMinSamples, "max_duration_seconds": 86_400,
                ],
            ])
        guard let id = (started["rollout"] as? [String: Any])?["id"] as? String else {
            throw BenchFailure("the server started no rollout")
        }
        let declines = { (side: BenchRoutingPayment.Side) in
            BenchTable.number((side == .a ? settings.declineA : settings.declineB) * 100, 0) + " %"
        }
        BenchProgress.write("rollout \(name): live \(live.rawValue), draft \(draft.rawValue)\n")
        var sent: [BenchRoutingPayment] = []
        var running = true
        let slug = name.replacingOccurrences(of: " ", with: "-")
        while running && sent.count < settings.rolloutLimit {
            let next = sent.count..<min(sent.count + settings.concurrency * 5, settings.rolloutLimit)
            sent += await shop.payer.pay(references("rollout-\(slug)", next), concurrency: settings.concurrency)
            running = try await admin(.GET, routing)["rollout"] is [String: Any]
        }
        if running { _ = try await admin(.POST, routing + "/rollout/stop") }
        var report = BenchRoutingReport.Rollout(
            name: name, live: "\(live.rawValue) (\(declines(live)) declined)",
            draft: "\(draft.rawValue) (\(declines(draft)) declined)", expected: expected,
            share: settings.rolloutShare, guardrailPP: settings.guardrailPP, minSamples: settings.rolloutMinSamples,
            paymentsSent: sent.count, draftPayments: sent.filter { $0.arm == "draft" }.count)
        if !running, let ended = try await endedRollout(id, shop: shop) {
            Self.decide(&report, from: ended)
        }
        return report
    }

    /// Fills the decision and its figures from an ended rollout's object (a rollout event's `data.object`).
    static func decide(_ report: inout BenchRoutingReport.Rollout, from object: [String: Any]) {
        report.status = object["status"] as? String
        report.reason = object["reason"] as? String
        report.control = BenchRoutingReport.Arm(object["control"] as? [String: Any])
        report.draftArm = BenchRoutingReport.Arm(object["draft"] as? [String: Any])
        let interval = object["interval"] as? [String: Any]
        report.differencePP = (interval?["difference_pp"] as? NSNumber)?.doubleValue
        report.lowerPP = (interval?["lower_pp"] as? NSNumber)?.doubleValue
        report.upperPP = (interval?["upper_pp"] as? NSNumber)?.doubleValue
        if let control = report.control, let draft = report.draftArm {
            report.cost = BenchRoutingReport.Cost(
                control: control, draft: draft, guardrailPP: report.guardrailPP, minSamples: report.minSamples)
        }
    }

    /// The object of the promoted or rolled-back event of rollout `id` (nil when none appears within a few
    /// seconds of the rollout ending).
    private func endedRollout(_ id: String, shop: Shop) async throws -> [String: Any]? {
        let auth = [("Authorization", "Bearer \(shop.apiKey)")]
        for _ in 0..<25 {
            for type in ["routing.rollout.rolled_back", "routing.rollout.promoted"] {
                let listed = await http.send(.GET, serverURL + "/v1/events?type=" + type, headers: auth)
                let events = BenchHTTP.object(listed.body)["data"] as? [[String: Any]] ?? []
                for event in events {
                    let object = (event["data"] as? [String: Any])?["object"] as? [String: Any]
                    if let object, (object["id"] as? String)?.lowercased() == id.lowercased() { return object }
                }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }
}
