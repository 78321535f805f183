import Foundation
import SwitchyardCore

/// What `routing/replay` answers: for the draft and the live routing on the same logged payments, the
/// expected authorisation rate (how it was estimated, n, effective sample size, interval, or "not enough
/// evidence"), the expected fees and each account's share, overall and per country × currency × method;
/// then a page of the payments the draft would send to another account.
struct ReplayBody: Encodable {
    /// An estimated authorisation rate; `estimate`, `lower` and `upper` are null with "not enough evidence".
    struct Rate: Encodable {
        var method: String
        var n: Int
        var nEff: Double
        var estimate: Double?
        var lower: Double?
        var upper: Double?
        var evidence: String

        enum CodingKeys: String, CodingKey {
            case method, n, estimate, lower, upper, evidence
            case nEff = "n_eff"
        }

        init(_ e: OffPolicyEstimate) {
            method = e.method.rawValue
            n = e.samples
            nEff = (e.effectiveSamples * 100).rounded() / 100
            (estimate, lower, upper) = (e.rate, e.lower, e.upper)
            evidence = e.enoughEvidence ? "enough" : ReplayBody.notEnoughEvidence
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(method, forKey: .method)
            try c.encode(n, forKey: .n)
            try c.encode(nEff, forKey: .nEff)
            try c.encode(estimate, forKey: .estimate)
            try c.encode(lower, forKey: .lower)
            try c.encode(upper, forKey: .upper)
            try c.encode(evidence, forKey: .evidence)
        }
    }

    static let notEnoughEvidence = "not enough evidence"

    struct Share: Encodable {
        var accountId: String
        var share: Double

        enum CodingKeys: String, CodingKey {
            case accountId = "account_id"
            case share
        }
    }

    /// One routing on a set of payments.
    struct Policy: Encodable {
        var authorizationRate: Rate
        /// Minor units per currency; null when an account the routing uses has no fee model.
        var expectedFees: [String: Int64]?
        var shares: [Share]
        var unrouted: Int

        enum CodingKeys: String, CodingKey {
            case authorizationRate = "authorization_rate"
            case expectedFees = "expected_fees"
            case shares, unrouted
        }

        init(_ o: RoutingReplay.Outcome) {
            authorizationRate = Rate(o.estimate)
            expectedFees = o.fees
            shares = o.shares.sorted { $0.key.uuidString < $1.key.uuidString }.map {
                Share(accountId: $0.key.uuidString.lowercased(), share: ($0.value * 10_000).rounded() / 10_000)
            }
            unrouted = o.unrouted
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(authorizationRate, forKey: .authorizationRate)
            try c.encode(expectedFees, forKey: .expectedFees)
            try c.encode(shares, forKey: .shares)
            try c.encode(unrouted, forKey: .unrouted)
        }
    }

    struct Segment: Encodable {
        var country: String
        var currency: String
        var method: String
        var observed: Rate
        var draft: Policy
        var live: Policy
    }

    struct Change: Encodable {
        var paymentId: String
        var country: String
        var currency: String
        var method: String
        var decidedAt: Date
        var fromAccountId: String
        var toAccountId: String?

        enum CodingKeys: String, CodingKey {
            case country, currency, method
            case paymentId = "payment_id"
            case decidedAt = "decided_at"
            case fromAccountId = "from_account_id"
            case toAccountId = "to_account_id"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(paymentId, forKey: .paymentId)
            try c.encode(country, forKey: .country)
            try c.encode(currency, forKey: .currency)
            try c.encode(method, forKey: .method)
            try c.encode(decidedAt, forKey: .decidedAt)
            try c.encode(fromAccountId, forKey: .fromAccountId)
            try c.encode(toAccountId, forKey: .toAccountId)
        }
    }

    struct Changes: Encodable {
        var total: Int
        var data: [Change]
        var nextCursor: String?

        enum CodingKeys: String, CodingKey {
            case total, data
            case nextCursor = "next_cursor"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(total, forKey: .total)
            try c.encode(data, forKey: .data)
            try c.encode(nextCursor, forKey: .nextCursor)
        }
    }

    var object = "routing_replay"
    /// Which attempt is scored: the first (its account is the routing's choice; failover is not scored).
    var scoredAttempt = "first"
    var payments: Int
    var observed: Rate
    var draft: Policy
    var live: Policy
    var segments: [Segment]
    var changes: Changes

    enum CodingKeys: String, CodingKey {
        case object, payments, observed, draft, live, segments, changes
        case scoredAttempt = "scored_attempt"
    }

    init(_ report: RoutingReplay.Report, changes page: [RoutingReplay.Change], nextCursor: String?) {
        payments = report.payments
        observed = Rate(report.observed)
        draft = Policy(report.draft)
        live = Policy(report.live)
        segments = report.segments.map {
            Segment(
                country: $0.segment.country, currency: $0.segment.currency, method: $0.segment.method,
                observed: Rate($0.observed), draft: Policy($0.draft), live: Policy($0.live))
        }
        changes = Changes(
            total: report.changes.count,
            data: page.map {
                Change(
                    paymentId: $0.paymentId, country: $0.segment.country, currency: $0.segment.currency,
                    method: $0.segment.method, decidedAt: $0.decidedAt, fromAccountId: $0.from.uuidString.lowercased(),
                    toAccountId: $0.to?.uuidString.lowercased())
            }, nextCursor: nextCursor)
    }
}
