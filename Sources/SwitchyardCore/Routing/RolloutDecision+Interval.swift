import Foundation

extension RolloutDecision {
    /// The always-valid interval for draft − control authorisation rate.
    public struct Interval: Codable, Sendable, Equatable {
        public var difference: Double
        public var lower: Double
        public var upper: Double
    }

    /// The figures that decide, as the rollout's API and events show them.
    public struct Figures: Codable, Sendable, Equatable {
        public var control: Tally
        public var draft: Tally
        public var controlRate: Double?
        public var draftRate: Double?
        /// The interval for draft − control, nil until both arms have answers.
        public var interval: Interval?
        public var guardrail: Double
        public var alpha: Double
        public var minSamples: Int
        public var elapsedSeconds: Double
    }

    /// The figures now.
    public var figures: Figures {
        Figures(
            control: control, draft: draft, controlRate: control.rate, draftRate: draft.rate, interval: interval,
            guardrail: settings.guardrail, alpha: settings.alpha, minSamples: settings.minSamples,
            elapsedSeconds: max(0, now.timeIntervalSince(startedAt)))
    }

    /// The mixture-SPRT confidence sequence for draft − control, nil until both arms have an answer.
    ///
    /// With the difference's estimated variance `V` and a normal mixing distribution of variance `τ²` over
    /// the effect, the half-width is `sqrt(2·V·(V+τ²)/τ² · log(sqrt((V+τ²)/V) / alpha))`. `τ` is the
    /// guardrail (at least 1 point): the interval is tightest for differences of that size. The variance
    /// uses rates shrunk by half an answer so that a run of identical answers does not read as certainty.
    public var interval: Interval? {
        guard let controlRate = control.rate, let draftRate = draft.rate else { return nil }
        func variance(_ tally: Tally) -> Double {
            let shrunk = (Double(tally.approved) + 0.5) / (Double(tally.samples) + 1)
            return shrunk * (1 - shrunk) / Double(tally.samples)
        }
        let v = variance(control) + variance(draft)
        let tau2 = pow(max(settings.guardrail, 0.01), 2)
        let alpha = min(max(settings.alpha, 1e-9), 1)
        let width = (2 * v * (v + tau2) / tau2 * log((((v + tau2) / v).squareRoot()) / alpha)).squareRoot()
        let difference = draftRate - controlRate
        return Interval(difference: difference, lower: difference - width, upper: difference + width)
    }
}
