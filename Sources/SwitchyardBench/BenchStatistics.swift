import Foundation
import SwitchyardCommands

/// Latency percentiles of one measured step, in milliseconds (nearest-rank).
package struct LatencySummary: Codable, Equatable, Sendable {
    package var p50: Double
    package var p90: Double
    package var p99: Double
    package var max: Double

    /// The summary of `samples` (seconds); all zero when there are none.
    package init(seconds samples: [Double]) {
        let sorted = samples.sorted()
        p50 = Self.percentile(50, of: sorted) * 1000
        p90 = Self.percentile(90, of: sorted) * 1000
        p99 = Self.percentile(99, of: sorted) * 1000
        max = (sorted.last ?? 0) * 1000
    }

    package init(p50: Double, p90: Double, p99: Double, max: Double) {
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    /// The nearest-rank percentile `p` (0...100) of ascending `sorted` values; 0 for no values.
    package static func percentile(_ p: Double, of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    /// Percentile by percentile, `self − other` (Switchyard minus the provider alone).
    package func minus(_ other: LatencySummary) -> LatencySummary {
        LatencySummary(p50: p50 - other.p50, p90: p90 - other.p90, p99: p99 - other.p99, max: max - other.max)
    }
}

/// What one load run measured: how many calls, how long, their latencies and the failures by status.
package struct LoadMeasure: Codable, Equatable, Sendable {
    /// Calls made.
    package var count: Int
    /// Wall-clock seconds from the first call to the last answer.
    package var seconds: Double
    /// Successful calls per second.
    package var throughput: Double
    package var latency: LatencySummary
    /// Failed calls by HTTP status (`"0"`: no answer at all).
    package var errors: [String: Int]

    package init(count: Int, seconds: Double, throughput: Double, latency: LatencySummary, errors: [String: Int]) {
        self.count = count
        self.seconds = seconds
        self.throughput = throughput
        self.latency = latency
        self.errors = errors
    }

    /// The measure of calls that took `latencies` seconds and answered `statuses` (0 for no answer),
    /// over `seconds` of wall-clock time. A 2xx status is a success.
    package init(latencies: [Double], statuses: [Int], seconds: Double) {
        var errors: [String: Int] = [:]
        for status in statuses where !(200..<300).contains(status) { errors["\(status)", default: 0] += 1 }
        let successes = statuses.count - errors.values.reduce(0, +)
        self.init(
            count: statuses.count, seconds: seconds,
            throughput: seconds > 0 ? Double(successes) / seconds : 0,
            latency: LatencySummary(seconds: latencies), errors: errors)
    }

    /// Calls that succeeded (a 2xx status).
    package var successes: Int { count - errors.values.reduce(0, +) }

    /// The errors as `status×count` pairs, most frequent first; `0` when there were none.
    package var errorText: String {
        guard !errors.isEmpty else { return "0" }
        return errors.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key)×\($0.value)" }.joined(separator: " ")
    }
}
