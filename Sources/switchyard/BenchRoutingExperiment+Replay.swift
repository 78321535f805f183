import Foundation
import SwitchyardCommands

/// The replay experiment: payments under a live routing that draws A or B with equal weights (so every
/// payment's logged propensity is one half), a replay of a draft sending German cards to A and the rest to
/// B, then the draft live on fresh payments. The replay's prediction, per segment and overall, is set
/// against the authorisation rate the draft achieved.
extension BenchRoutingExperiment {
    /// The countries of the replay's payments, alternating: two segments.
    static let replayCountries = ["FR", "DE"]

    func replay(_ shop: Shop) async throws -> BenchRoutingReport.Replay {
        try await setDecline(sandbox.merchantA.merchantId, settings.declineA)
        try await setDecline(sandbox.merchantB.merchantId, settings.declineB)
        let routing = "/admin/v1/tenants/\(shop.tenantId)/routing"
        let live: [String: Any] = [
            "name": "cards", "match": Self.cards, "accounts": [shop.a, shop.b], "strategy": "weighted",
            "weights": [1, 1],
        ]
        _ = try await admin(.PUT, routing, ["rules": [live]])
        let count = settings.replayPayments
        BenchProgress.write("replay: \(count) payments under weighted A, B\n")
        _ = await shop.payer.pay(
            references("replay-logged", 0..<count), countries: Self.replayCountries, concurrency: settings.concurrency)

        let germany = Self.cards.merging(["countries": ["DE"]]) { _, new in new }
        let draft: [[String: Any]] = [
            ["name": "germany to A", "match": germany, "accounts": [shop.a]],
            ["name": "cards to B", "match": Self.cards, "accounts": [shop.b]],
        ]
        let answer = try await admin(.POST, routing + "/replay", ["rules": draft, "window": ["last": count]])
        _ = try await admin(.PUT, routing, ["rules": draft])
        BenchProgress.write("replay: \(count) fresh payments with the draft live\n")
        let fresh = await shop.payer.pay(
            references("replay-fresh", 0..<count), countries: Self.replayCountries, concurrency: settings.concurrency)
        return BenchRoutingReport.Replay(
            live: "weighted A, B 1:1", draft: "DE to A, the rest to B", declineA: settings.declineA,
            declineB: settings.declineB, loggedPayments: count, freshPayments: count,
            segments: Self.replaySegments(answer, fresh: fresh))
    }

    /// The replay answer's draft estimates, overall first, each with the rate `fresh` payments of its
    /// segment achieved (fresh payments are EUR cards, so a segment is told by its country).
    static func replaySegments(_ answer: [String: Any], fresh: [BenchRoutingPayment])
        -> [BenchRoutingReport.ReplaySegment]
    {
        func predicted(_ object: [String: Any]) -> BenchRoutingReport.Estimate? {
            BenchRoutingReport.Estimate((object["draft"] as? [String: Any])?["authorization_rate"] as? [String: Any])
        }
        var segments: [BenchRoutingReport.ReplaySegment] = []
        if let overall = predicted(answer) {
            segments.append(
                .init(segment: "overall", predicted: overall, achieved: BenchRoutingReport.window(fresh, first: 1)))
        }
        for segment in answer["segments"] as? [[String: Any]] ?? [] {
            guard let estimate = predicted(segment) else { continue }
            let country = segment["country"] as? String
            let name = [country ?? "any", segment["currency"] as? String ?? "-", segment["method"] as? String ?? "-"]
            let achieved = BenchRoutingReport.window(fresh.filter { $0.country == country }, first: 1)
            segments.append(.init(segment: name.joined(separator: " "), predicted: estimate, achieved: achieved))
        }
        return segments
    }
}
