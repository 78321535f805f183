import Foundation

/// Orders a rule's suitable, healthy accounts by estimated authorisation rate: pure, deterministic per
/// routing key, no I/O.
///
/// Accounts with fewer than `minSamples` answers have "not enough data" and follow the ranked ones in
/// the rule's order; when none has enough, the rule's order stands. The others rank by the lower bound
/// of their rate's confidence interval (few answers → wide interval → ranked cautiously), ties by rule
/// order. An exploration draw seeded by the routing key puts another account first with probability
/// `explorationShare`; otherwise, with `maxRateLoss` set, the cheapest account whose rate is within that
/// many percentage points of the best one's goes first.
public enum AdaptiveRanker {
    /// One account to rank, in the rule's order.
    public struct Candidate: Sendable, Equatable {
        public var accountId: UUID
        /// The account's fee model for the payment's currency, if it has one.
        public var fee: FeeModel?

        public init(accountId: UUID, fee: FeeModel? = nil) {
            self.accountId = accountId
            self.fee = fee
        }
    }

    /// The knobs of one ranking.
    public struct Settings: Sendable, Equatable {
        /// Share of payments (0…1) whose first account is chosen by an exploration draw.
        public var explorationShare: Double
        public var minSamples: Int
        public var countryMinSamples: Int
        /// Width of the confidence interval in standard deviations.
        public var confidenceZ: Double
        /// Percentage points of rate a cheaper account may lose against the best; nil: no cost step.
        public var maxRateLoss: Double?

        public init(
            explorationShare: Double, minSamples: Int, countryMinSamples: Int, confidenceZ: Double,
            maxRateLoss: Double? = nil
        ) {
            self.explorationShare = explorationShare
            self.minSamples = minSamples
            self.countryMinSamples = countryMinSamples
            self.confidenceZ = confidenceZ
            self.maxRateLoss = maxRateLoss
        }

        /// The platform's (or tenant-adjusted) adaptive routing policy with a rule's `max_rate_loss`.
        public init(_ policy: PlatformPolicy.AdaptiveRouting, maxRateLoss: Double?) {
            self.init(
                explorationShare: policy.explorationShare, minSamples: policy.minSamples,
                countryMinSamples: policy.countryMinSamples, confidenceZ: policy.confidenceZ,
                maxRateLoss: maxRateLoss)
        }
    }

    /// The estimate of one account for one payment.
    public struct Estimate: Sendable, Equatable {
        public var samples: Int
        public var rate: Double?
        public var lower: Double?
        public var upper: Double?
        /// When the newest answer counted was recorded.
        public var newest: Date?
    }

    /// Ranks `candidates` (the rule's suitable, healthy accounts in rule order) for `payment`.
    /// - Parameter stats: the tenant's statistics, or nil when they could not be read (the rule's order
    ///   stands, with reason "statistics unavailable").
    /// - Returns: every candidate once, in the order to try, positions from 1.
    public static func rank(
        _ candidates: [Candidate], stats: [AuthorizationStats]?, payment: PaymentDescription, settings: Settings,
        routingKey: String
    ) -> [RoutingDecision.Rank] {
        decide(candidates, stats: stats, payment: payment, settings: settings, routingKey: routingKey).ranking
    }

    /// Ranks `candidates` like ``rank(_:stats:payment:settings:routingKey:)`` and also gives the probability
    /// with which each goes first over all routing keys: the greedy choice (best bound, or the cheaper
    /// account the cost step picks) gets 1 − `explorationShare`, every other account an equal part of
    /// `explorationShare`; the first account gets 1 when the rule's order stands.
    public static func decide(
        _ candidates: [Candidate], stats: [AuthorizationStats]?, payment: PaymentDescription, settings: Settings,
        routingKey: String
    ) -> (ranking: [RoutingDecision.Rank], propensities: [RoutingDecision.Propensity]) {
        func certain(_ ranking: [RoutingDecision.Rank]) -> [RoutingDecision.Propensity] {
            ranking.first.map { [.init(accountId: $0.accountId, probability: 1)] } ?? []
        }
        guard let stats else {
            let ranking = candidates.enumerated().map { index, candidate in
                RoutingDecision.Rank(
                    accountId: candidate.accountId, position: index + 1, fee: candidate.fee?.fee(for: payment.amount),
                    reason: "statistics unavailable: rule order")
            }
            return (ranking, certain(ranking))
        }
        let entries = candidates.enumerated().map { index, candidate in
            Entry(
                index: index, candidate: candidate,
                estimate: estimate(
                    candidate.accountId, stats: stats, payment: payment, countryMinSamples: settings.countryMinSamples,
                    z: settings.confidenceZ),
                fee: candidate.fee?.fee(for: payment.amount))
        }
        let minSamples = max(1, settings.minSamples)
        let known = entries.filter { $0.estimate.samples >= minSamples && $0.estimate.lower != nil }
        let unknown = entries.filter { !known.map(\.index).contains($0.index) }
        func lacking(_ entry: Entry, _ suffix: String = "") -> String {
            "not enough data (\(entry.estimate.samples) of \(minSamples))\(suffix)"
        }
        guard !known.isEmpty else {
            let ranking = entries.enumerated().map { position, entry in
                entry.rank(position + 1, lacking(entry, ": rule order"))
            }
            return (ranking, certain(ranking))
        }
        let byBound = known.sorted {
            let (a, b) = ($0.estimate.lower ?? 0, $1.estimate.lower ?? 0)
            return a != b ? a > b : $0.index < $1.index
        }
        let ranked = byBound + unknown
        var reasons: [Int: String] = [:]
        for (position, entry) in ranked.enumerated() {
            reasons[entry.index] =
                position == 0
                ? "highest lower bound"
                : entry.estimate.samples >= minSamples
                    ? "lower bound \(percent(entry.estimate.lower)) below best \(percent(ranked[0].estimate.lower))"
                    : lacking(entry)
        }
        let cheaper = settings.maxRateLoss.flatMap { cheaperChoice(known: byBound, loss: $0) }
        let greedy = cheaper?.0 ?? ranked[0]
        let others = ranked.filter { $0.index != greedy.index }
        var first: Entry?
        if !others.isEmpty, let pick = explorationDraw(routingKey, share: settings.explorationShare) {
            first = explorationChoice(others, pick: pick)
            if let first { reasons[first.index] = "exploration draw" }
        } else if let (entry, reason) = cheaper {
            first = entry
            reasons[entry.index] = reason
        }
        let order = first.map { chosen in [chosen] + ranked.filter { $0.index != chosen.index } } ?? ranked
        let ranking = order.enumerated().map { position, entry in
            entry.rank(position + 1, reasons[entry.index] ?? "")
        }
        return (ranking, propensities(greedy: greedy, others: others, share: settings.explorationShare))
    }

    /// The probability of each account to go first: `share` (clamped to 0…1) spread evenly over `others`,
    /// the rest on `greedy`; in rule order, accounts that never go first left out.
    static func propensities(greedy: Entry, others: [Entry], share: Double) -> [RoutingDecision.Propensity] {
        let explored = !others.isEmpty && share.isFinite ? min(1, max(0, share)) : 0
        let each = others.isEmpty ? 0 : explored / Double(others.count)
        let all = ([(greedy, 1 - explored)] + others.map { ($0, each) }).sorted { $0.0.index < $1.0.index }
        return all.compactMap { entry, probability in
            probability > 0 ? .init(accountId: entry.candidate.accountId, probability: probability) : nil
        }
    }

    struct Entry {
        var index: Int
        var candidate: Candidate
        var estimate: Estimate
        var fee: Int64?

        func rank(_ position: Int?, _ reason: String) -> RoutingDecision.Rank {
            RoutingDecision.Rank(
                accountId: candidate.accountId, position: position, estimatedRate: estimate.rate,
                samples: estimate.samples, lowerBound: estimate.lower, upperBound: estimate.upper, fee: fee,
                reason: reason)
        }
    }

    /// The salt that keeps exploration draws independent of weighted draws of the same key.
    static let explorationSalt = "adaptive-exploration|"

    /// Whether the payment with `key` is an exploration draw: true for a share `share` of keys, always
    /// the same answer for the same key.
    public static func explores(_ key: String, share: Double) -> Bool {
        explorationDraw(key, share: share) != nil
    }

    /// The exploration draw of the payment with `key`: nil when it is not one, else the number that picks
    /// the account to explore (the generator's next value, so the same key always picks the same one).
    static func explorationDraw(_ key: String, share: Double) -> UInt64? {
        guard share.isFinite, share > 0 else { return nil }
        var generator = SplitMix64(seed: StableHash.fnv1a(explorationSalt + key))
        let unit = Double(generator.next() >> 11) / Double(UInt64(1) << 53)
        return unit < share ? generator.next() : nil
    }

    /// The account an exploration draw sends first: one of `others` (the ranked accounts but the one the
    /// ranking or the cost step would send first), each equally likely over routing keys.
    static func explorationChoice(_ others: [Entry], pick: UInt64) -> Entry? {
        guard !others.isEmpty else { return nil }
        return others[Int(pick % UInt64(others.count))]
    }
}
