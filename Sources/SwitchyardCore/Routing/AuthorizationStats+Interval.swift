import Foundation

extension AuthorizationStats {
    /// The observed authorisation rate and its Wilson score interval at `z` standard deviations, or nil
    /// without answers. Few answers give a wide interval; the bounds stay within 0…1.
    public func wilsonInterval(z: Double) -> (rate: Double, lower: Double, upper: Double)? {
        guard samples > 0, approved >= 0, declined >= 0, z.isFinite, z >= 0 else { return nil }
        let n = Double(samples)
        let rate = Double(approved) / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (rate + z2 / (2 * n)) / denominator
        let margin = z * ((rate * (1 - rate) / n + z2 / (4 * n * n)).squareRoot()) / denominator
        return (rate, max(0, centre - margin), min(1, centre + margin))
    }
}
