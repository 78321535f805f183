import Foundation

/// One first-attempt routing decision as logged: the payment's segment and amount, the account the live
/// routing chose, the probability with which it chose it, and whether the attempt was authorised.
/// Attempts without a definite answer (not sent, unknown) are not logged.
public struct LoggedDecision: Sendable, Equatable {
    public var paymentId: String
    /// The payment's reference, which seeds its routing key (nil when the payment is gone).
    public var reference: String?
    public var segment: RoutingSegment
    public var amount: Int64
    public var accountId: UUID
    /// The probability (0…1] with which the live routing chose `accountId`.
    public var propensity: Double
    public var approved: Bool
    /// The chosen account's fee for the payment, when its fee model gave one.
    public var fee: Int64?
    public var decidedAt: Date

    public init(
        paymentId: String, reference: String? = nil, segment: RoutingSegment, amount: Int64, accountId: UUID,
        propensity: Double, approved: Bool, fee: Int64? = nil, decidedAt: Date
    ) {
        self.paymentId = paymentId
        self.reference = reference
        self.segment = segment
        self.amount = amount
        self.accountId = accountId
        self.propensity = propensity
        self.approved = approved
        self.fee = fee
        self.decidedAt = decidedAt
    }
}

/// Country × currency × method: the context replay estimates separately.
public struct RoutingSegment: Sendable, Hashable, Comparable {
    public var country: String
    public var currency: String
    public var method: String

    public init(country: String, currency: String, method: String) {
        self.country = country
        self.currency = currency
        self.method = method
    }

    public static func < (a: RoutingSegment, b: RoutingSegment) -> Bool {
        (a.country, a.currency, a.method) < (b.country, b.currency, b.method)
    }
}

/// An estimate of the authorisation rate a routing would have reached on logged payments, or the
/// admission that the logs cannot tell.
public struct OffPolicyEstimate: Sendable, Equatable {
    /// How the number was made: `observed` (the routing gives every logged payment's account the
    /// probability with which it was chosen and uses no account never chosen in the segment: it is the
    /// routing that made the logs, so the observed rate is the answer) or `dr` (doubly robust: model plus
    /// propensity-weighted correction).
    public enum Method: String, Sendable, Codable {
        case observed, dr
    }

    public var method: Method
    /// Logged payments the estimate covers.
    public var samples: Int
    /// Effective sample size of the importance weights, (Σw)² / Σw².
    public var effectiveSamples: Double
    /// The estimated rate and its confidence interval; nil when there is not enough evidence.
    public var rate: Double?
    public var lower: Double?
    public var upper: Double?

    /// Whether the logs support a number.
    public var enoughEvidence: Bool { rate != nil }
}

/// The doubly robust estimator over logged decisions (Dudík, Langford, Li 2011), pure and deterministic.
///
/// For a target routing π and logged decisions (x, a, μ(a|x), r), each payment contributes
/// Σ_b π(b|x)·r̂(x,b) + π(a|x)/μ(a|x)·(r − r̂(x,a)), where r̂ is the Wilson-smoothed rate of the segment ×
/// account (the segment's rate when the account has no answers there). The estimate is the mean of the
/// terms, its interval the normal interval of their variance. A segment where the target sends payments
/// to accounts the live routing never chose there, or whose effective sample size is below the threshold,
/// has not enough evidence.
public struct OffPolicyEstimator: Sendable {
    /// Width of the interval in standard deviations (1.96 ≈ 95 %).
    public var z: Double
    /// Fewest effective samples for a number.
    public var minEffectiveSamples: Double
    /// Largest share of the target's choices that may go to accounts never chosen in the segment.
    public var maxUnsupportedShare: Double

    public init(z: Double = 1.96, minEffectiveSamples: Double = 10, maxUnsupportedShare: Double = 0.01) {
        self.z = z
        self.minEffectiveSamples = minEffectiveSamples
        self.maxUnsupportedShare = maxUnsupportedShare
    }

    /// The reward model: approved and declined answers per segment × account, and per segment.
    public struct Model: Sendable {
        var accounts: [RoutingSegment: [UUID: (approved: Int, samples: Int)]] = [:]
        var segments: [RoutingSegment: (approved: Int, samples: Int)] = [:]
        let z: Double

        /// Counts every decision's answer.
        public init(_ decisions: [LoggedDecision], z: Double = 1.96) {
            self.z = z
            for d in decisions {
                let add = d.approved ? 1 : 0
                accounts[d.segment, default: [:]][d.accountId, default: (0, 0)].approved += add
                accounts[d.segment, default: [:]][d.accountId, default: (0, 0)].samples += 1
                segments[d.segment, default: (0, 0)].approved += add
                segments[d.segment, default: (0, 0)].samples += 1
            }
        }

        /// Whether the live routing ever chose `account` in `segment`.
        public func supports(_ account: UUID, in segment: RoutingSegment) -> Bool {
            (accounts[segment]?[account]?.samples ?? 0) > 0
        }

        /// r̂(x, a): the Wilson centre of the account's answers in the segment, else of the segment's, else ½.
        public func rate(_ account: UUID, in segment: RoutingSegment) -> Double {
            let counts = accounts[segment]?[account] ?? segments[segment] ?? (0, 0)
            guard counts.samples > 0 else { return 0.5 }
            let n = Double(counts.samples)
            let z2 = z * z
            return (Double(counts.approved) / n + z2 / (2 * n)) / (1 + z2 / n)
        }

        /// The answers counted per account, for routings that rank by statistics.
        public func stats() -> [AuthorizationStats] {
            var overall: [String: AuthorizationStats] = [:]
            var local: [AuthorizationStats] = []
            for (segment, byAccount) in accounts {
                for (account, counts) in byAccount {
                    let row = AuthorizationStats(
                        accountId: account, method: segment.method, currency: segment.currency,
                        country: segment.country, approved: counts.approved, declined: counts.samples - counts.approved)
                    local.append(row)
                    let key = "\(account)|\(segment.method)|\(segment.currency)"
                    var all =
                        overall[key]
                        ?? AuthorizationStats(
                            accountId: account, method: segment.method, currency: segment.currency, approved: 0,
                            declined: 0)
                    all.approved += row.approved
                    all.declined += row.declined
                    overall[key] = all
                }
            }
            return overall.values.sorted { "\($0.accountId)" < "\($1.accountId)" } + local
        }
    }

    /// The observed rate of `decisions` with its normal interval.
    public func observed(_ decisions: [LoggedDecision]) -> OffPolicyEstimate {
        let terms = decisions.map { $0.approved ? 1.0 : 0.0 }
        let (mean, lower, upper) = interval(terms)
        return OffPolicyEstimate(
            method: .observed, samples: decisions.count, effectiveSamples: Double(decisions.count), rate: mean,
            lower: lower, upper: upper)
    }

    /// The estimate for a target routing that chooses account b for decision i with probability
    /// `targets[i][b]` (an empty distribution: the payment finds no route and counts as not authorised).
    ///
    /// When the target gives every logged account exactly its logged probability (every weight is 1) and
    /// nothing to accounts never chosen in the segment, it is the routing that made the logs and the
    /// observed rate is the answer (`observed`). A logged probability outside (0, 1], or a weight too large
    /// for a `Double`, is no evidence: the estimate then has no number.
    public func estimate(
        _ decisions: [LoggedDecision], targets: [[UUID: Double]], model: Model
    ) -> OffPolicyEstimate {
        precondition(decisions.count == targets.count, "one target distribution per decision")
        var terms: [Double] = []
        var weights: [Double] = []
        var unsupported = 0.0
        var (usable, onPolicy) = (true, true)
        for (d, target) in zip(decisions, targets) {
            let w = (target[d.accountId] ?? 0) / d.propensity
            guard d.propensity > 0, d.propensity <= 1, w.isFinite else {
                (usable, onPolicy) = (false, false)
                continue
            }
            let reward = d.approved ? 1.0 : 0.0
            let choices = Self.ordered(target)
            let direct = choices.reduce(0) { $0 + $1.value * model.rate($1.key, in: d.segment) }
            terms.append(direct + w * (reward - model.rate(d.accountId, in: d.segment)))
            weights.append(w)
            unsupported += choices.filter { !model.supports($0.key, in: d.segment) }.reduce(0) { $0 + $1.value }
            onPolicy = onPolicy && abs(w - 1) <= 1e-9
        }
        if onPolicy && unsupported == 0 { return observed(decisions) }
        let effective = Self.effectiveSamples(weights)
        var result = OffPolicyEstimate(
            method: .dr, samples: decisions.count, effectiveSamples: effective, rate: nil, lower: nil, upper: nil)
        let supported =
            usable && !decisions.isEmpty && effective >= minEffectiveSamples
            && unsupported <= maxUnsupportedShare * Double(decisions.count)
        guard supported else { return result }
        (result.rate, result.lower, result.upper) = interval(terms)
        return result
    }

    /// (Σw)² / Σw² of finite, non-negative weights, computed on the weights scaled by the largest so that
    /// no square overflows (the ratio does not change with the scale); 0 when every weight is 0.
    static func effectiveSamples(_ weights: [Double]) -> Double {
        guard let largest = weights.max(), largest > 0 else { return 0 }
        let scaled = weights.map { $0 / largest }
        let sum = scaled.reduce(0, +)
        return sum * sum / scaled.reduce(0) { $0 + $1 * $1 }
    }

    /// A target distribution in a fixed order (by account id), so that sums over it do not depend on the
    /// order a dictionary happens to hold its keys in, which changes from one process to the next.
    static func ordered(_ target: [UUID: Double]) -> [(key: UUID, value: Double)] {
        target.sorted { $0.key.uuidString < $1.key.uuidString }
    }

    /// The mean of `terms` and its normal interval, each clamped to 0…1, the variance at least that of one
    /// payment when there is only one; no number when the terms are too large for a finite mean or variance.
    func interval(_ terms: [Double]) -> (Double?, Double?, Double?) {
        guard !terms.isEmpty else { return (nil, nil, nil) }
        let n = Double(terms.count)
        let mean = terms.reduce(0, +) / n
        let variance =
            terms.count > 1 ? terms.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1) : 0.25
        let margin = z * (variance / n).squareRoot()
        guard mean.isFinite, margin.isFinite else { return (nil, nil, nil) }
        func clamp(_ value: Double) -> Double { min(1, max(0, value)) }
        return (clamp(mean), clamp(mean - margin), clamp(mean + margin))
    }
}
