import Foundation

extension RolloutSettings {
    /// The share bounds: at least 1 % and at most 50 % of the traffic goes through the draft.
    public static let shareRange: ClosedRange<Double> = 0.01...0.5
    /// The guardrail bounds, in percentage points.
    public static let guardrailRangePP: ClosedRange<Double> = 0.1...50
    /// The bounds of the minimum sample per arm.
    public static let minSamplesRange: ClosedRange<Int> = 1...10_000_000
    /// The bounds of the longest duration: one minute to ninety days.
    public static let maxDurationRange: ClosedRange<Int64> = 60...7_776_000

    /// Settings from a request, each checked against its bounds; a value out of bounds is refused with
    /// `invalid_parameter` naming it (`rollout.share`, …).
    /// - Parameters:
    ///   - share: the draft's share as a fraction (0.01–0.5).
    ///   - guardrailPP: how many percentage points worse the draft may be.
    public static func validated(share: Double, guardrailPP: Double, minSamples: Int, maxDurationSeconds: Int64)
        throws -> RolloutSettings
    {
        func refuse(_ field: String, _ message: String) -> CoreError {
            CoreError(.invalidParameter, message, param: "rollout.\(field)")
        }
        guard share.isFinite, shareRange.contains(share) else {
            throw refuse(
                "share", "the draft's share must be between 1 % and 50 % of the traffic (0.01–0.5 or \"1%\"–\"50%\")")
        }
        guard guardrailPP.isFinite, guardrailRangePP.contains(guardrailPP) else {
            throw refuse("guardrail_pp", "guardrail_pp must be between 0.1 and 50 percentage points")
        }
        guard minSamplesRange.contains(minSamples) else {
            throw refuse("min_samples", "min_samples must be between 1 and 10000000 answers per arm")
        }
        guard maxDurationRange.contains(maxDurationSeconds) else {
            throw refuse("max_duration_seconds", "max_duration_seconds must be between 60 and 7776000 (90 days)")
        }
        return RolloutSettings(
            share: share, guardrail: guardrailPP / 100, minSamples: minSamples,
            maxDuration: TimeInterval(maxDurationSeconds))
    }
}
