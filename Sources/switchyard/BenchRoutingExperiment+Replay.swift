import Foundation
import SwitchyardBench
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
        let freshCount = settings.replayFreshPayments
        BenchProgress.write("replay: \(freshCount) fresh payments with the draft live\n")
        let fresh = await shop.payer.pay(
            references("replay-fresh", 0..<freshCount), countries: Self.replayCountries,
            concurrency: settings.concurrency)
        // The draft's true expected rate per country: the sandbox declines A's and B's payments at the
        // configured shares, and the draft sends German cards to A, the rest to B.
        let truth = ["DE": 1 - settings.declineA, "FR": 1 - settings.declineB]
        return BenchRoutingReport.Replay(
            live: "weighted A, B 1:1", draft: "DE to A, the rest to B", declineA: settings.declineA,
            declineB: settings.declineB, loggedPayments: count, freshPayments: freshCount, z: settings.confidenceZ,
            segments: Self.replaySegments(answer, fresh: fresh, truth: truth, z: settings.confidenceZ))
    }

    /// The replay answer's draft estimates, overall first, each with the draft's true expected rate and the
    /// rate `fresh` payments of its segment achieved (fresh payments are EUR cards, so a segment is told by
    /// its country). `truth` is the true rate per country; the overall truth weighs the segments' by their
    /// logged payments (the replay's `n`), and is nil unless every segment has one.
    static func replaySegments(
        _ answer: [String: Any], fresh: [BenchRoutingPayment], truth: [String: Double], z: Double
    ) -> [BenchRoutingReport.ReplaySegment] {
        func predicted(_ object: [String: Any]) -> BenchRoutingReport.Estimate? {
            BenchRoutingReport.Estimate((object["draft"] as? [String: Any])?["authorization_rate"] as? [String: Any])
        }
        var segments: [BenchRoutingReport.ReplaySegment] = []
        var weighed: [(n: Int, truth: Double?)] = []
        for segment in answer["segments"] as? [[String: Any]] ?? [] {
            guard let estimate = predicted(segment) else { continue }
            let country = segment["country"] as? String
            let name = [country ?? "any", segment["currency"] as? String ?? "-", segment["method"] as? String ?? "-"]
            let achieved = BenchRoutingReport.window(fresh.filter { $0.country == country }, first: 1)
            let segmentTruth = country.flatMap { truth[$0] }
            weighed.append((estimate.n, segmentTruth))
            segments.append(
                .init(
                    segment: name.joined(separator: " "), predicted: estimate, truth: segmentTruth, achieved: achieved,
                    z: z))
        }
        if let overall = predicted(answer) {
            let logged = weighed.reduce(0) { $0 + $1.n }
            let known = weighed.compactMap { entry in entry.truth.map { Double(entry.n) * $0 } }
            let overallTruth = logged > 0 && known.count == weighed.count ? known.reduce(0, +) / Double(logged) : nil
            segments.insert(
                .init(
                    segment: "overall", predicted: overall, truth: overallTruth,
                    achieved: BenchRoutingReport.window(fresh, first: 1), z: z), at: 0)
        }
        return segments
    }
}
