import Foundation
import SwitchyardBench

extension BenchRoutingReport {
    /// An authorisation-rate estimate as `POST …/routing/replay` answers it; `estimate`, `lower` and
    /// `upper` are nil when the replay has not enough evidence.
    struct Estimate: Codable, Sendable, Equatable {
        var method: String?
        var n: Int
        var nEff: Double?
        var estimate: Double?
        var lower: Double?
        var upper: Double?
        var evidence: String

        /// The estimate in a replay answer's `authorization_rate` object (nil when there is none).
        init?(_ object: [String: Any]?) {
            guard let object, let n = (object["n"] as? NSNumber)?.intValue else { return nil }
            method = object["method"] as? String
            self.n = n
            nEff = (object["n_eff"] as? NSNumber)?.doubleValue
            estimate = (object["estimate"] as? NSNumber)?.doubleValue
            lower = (object["lower"] as? NSNumber)?.doubleValue
            upper = (object["upper"] as? NSNumber)?.doubleValue
            evidence = object["evidence"] as? String ?? "-"
        }

        init(method: String?, n: Int, nEff: Double?, estimate: Double?, lower: Double?, upper: Double?) {
            self.method = method
            self.n = n
            self.nEff = nEff
            self.estimate = estimate
            self.lower = lower
            self.upper = upper
            evidence = estimate == nil ? "not enough evidence" : "enough"
        }
    }

    /// One segment of the replay experiment (or `overall`): the replay's prediction for the draft, the
    /// draft's true expected rate (from the sandbox's configured declines), and the rate the draft achieved
    /// once live.
    struct ReplaySegment: Codable, Sendable, Equatable {
        /// `FR EUR card`, or `overall`.
        var segment: String
        var predicted: Estimate
        /// The draft's true expected rate on the segment's traffic (nil when unknown).
        var truth: Double?
        /// Whether the truth lies inside the replay's interval (what that interval claims to cover); nil
        /// without an interval or a truth.
        var truthInside: Bool?
        /// Payments of the segment on fresh traffic under the draft, and their authorisation rate.
        var achievedPayments: Int
        var achievedRate: Double
        /// The interval the achieved rate should fall in: the replay's plus the fresh sample's noise.
        var prediction: PredictionInterval?
        /// Whether the achieved rate lies inside `prediction`; nil without one.
        var achievedInside: Bool?

        init(segment: String, predicted: Estimate, truth: Double?, achieved: Window, z: Double) {
            self.segment = segment
            self.predicted = predicted
            self.truth = truth
            truthInside = truth.flatMap { Self.inside($0, predicted) }
            achievedPayments = achieved.last - achieved.first + 1
            achievedRate = achieved.authorisationRate
            prediction = PredictionInterval(predicted, fresh: achievedPayments, z: z)
            achievedInside = prediction?.contains(achievedRate)
        }

        /// Whether `rate` lies in the estimate's interval (bounds included); nil when the estimate has none.
        static func inside(_ rate: Double, _ estimate: Estimate) -> Bool? {
            guard let lower = estimate.lower, let upper = estimate.upper else { return nil }
            return lower <= rate && rate <= upper
        }
    }

    /// The replay experiment: traffic under a live routing that draws its account, a replay of a draft
    /// over it, then the draft live on fresh traffic.
    struct Replay: Codable, Sendable {
        var live: String
        var draft: String
        var declineA: Double
        var declineB: Double
        /// Payments logged under the live routing (the replay's window) and sent under the draft.
        var loggedPayments: Int
        var freshPayments: Int
        /// The z of the replay's intervals (the server's `adaptive_routing.confidence_z`), used for the
        /// prediction intervals.
        var z: Double
        /// `overall` first, then one per segment.
        var segments: [ReplaySegment]
    }

    /// One arm's answers when the rollout was decided.
    struct Arm: Codable, Sendable, Equatable {
        var samples: Int
        var approved: Int
        var rate: Double

        init(samples: Int, approved: Int, rate: Double) {
            self.samples = samples
            self.approved = approved
            self.rate = rate
        }

        init?(_ object: [String: Any]?) {
            guard let object, let samples = (object["samples"] as? NSNumber)?.intValue else { return nil }
            self.samples = samples
            approved = (object["approved"] as? NSNumber)?.intValue ?? 0
            rate = (object["rate"] as? NSNumber)?.doubleValue ?? 0
        }
    }

    /// What a draft cost while it ran, against what its guardrail allows.
    ///
    /// - `shortfallPP`: the control's rate minus the draft's, in percentage points (negative: the draft
    ///   did better);
    /// - `lostAuthorisations`: the draft's answers × that shortfall, the authorisations lost by sending the
    ///   draft's payments to the draft instead of the control;
    /// - `allowance`: `guardrail_pp` / 100 × `min_samples`. The guardrail lets a draft be up to
    ///   `guardrail_pp` worse than the control; over a rollout's natural length (`min_samples` answers on
    ///   the draft arm) that allows this many lost authorisations. A bad draft rolled back within the
    ///   allowance cost less than a draft the guardrail keeps may cost.
    struct Cost: Codable, Sendable, Equatable {
        var shortfallPP: Double
        var lostAuthorisations: Double
        var allowance: Double
        var withinAllowance: Bool

        init(control: Arm, draft: Arm, guardrailPP: Double, minSamples: Int) {
            shortfallPP = (control.rate - draft.rate) * 100
            lostAuthorisations = Double(draft.samples) * (control.rate - draft.rate)
            allowance = guardrailPP / 100 * Double(minSamples)
            withinAllowance = lostAuthorisations <= allowance
        }
    }

    /// One guarded rollout: a draft on `share` of the payments until the janitor ended it.
    struct Rollout: Codable, Sendable {
        var name: String
        var live: String
        var draft: String
        /// The decision the experiment expects: `promoted` or `rolled_back`.
        var expected: String
        var share: Double
        var guardrailPP: Double
        var minSamples: Int
        /// Payments sent while the rollout ran (and the last batch), and those the draft took.
        var paymentsSent: Int
        var draftPayments: Int
        /// The decision, from the rollout's event (nil: still running when the experiment stopped).
        var status: String?
        var reason: String?
        var control: Arm?
        var draftArm: Arm?
        /// The confidence sequence's draft − control at the decision, in percentage points.
        var differencePP: Double?
        var lowerPP: Double?
        var upperPP: Double?
        var cost: Cost?

        /// Whether the platform decided as expected.
        var asExpected: Bool { status == expected }
    }
}
