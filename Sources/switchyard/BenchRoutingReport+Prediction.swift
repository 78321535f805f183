import Foundation
import SwitchyardBench

extension BenchRoutingReport {
    /// Where the authorisation rate of `m` fresh payments should fall given a replay's estimate: the
    /// estimate's own uncertainty plus the fresh sample's binomial noise,
    /// `p ± z·√(se² + p(1−p)/m)` with `se` the estimate's interval half-width / z, clamped to [0, 1].
    ///
    /// The replay's interval claims to cover the draft's true expected rate; a rate achieved over `m`
    /// payments scatters around that rate as well, so it is judged against this wider interval.
    struct PredictionInterval: Codable, Sendable, Equatable {
        var lower: Double
        var upper: Double

        /// The interval for `m` fresh payments at the replay's `z` (nil when the estimate has no interval,
        /// `m` is not positive or `z` is not). The half-width is the wider side of the estimate's interval,
        /// as the replay clamps its interval to [0, 1] too.
        init?(_ estimate: Estimate, fresh m: Int, z: Double) {
            guard let p = estimate.estimate, let lower = estimate.lower, let upper = estimate.upper, m > 0, z > 0
            else { return nil }
            let standardError = max(p - lower, upper - p, 0) / z
            let share = min(max(p, 0), 1)
            let variance = standardError * standardError + share * (1 - share) / Double(m)
            let halfWidth = z * variance.squareRoot()
            self.lower = max(0, p - halfWidth)
            self.upper = min(1, p + halfWidth)
        }

        init(lower: Double, upper: Double) {
            self.lower = lower
            self.upper = upper
        }

        /// Whether `rate` lies in the interval (bounds included).
        func contains(_ rate: Double) -> Bool { lower <= rate && rate <= upper }
    }
}
