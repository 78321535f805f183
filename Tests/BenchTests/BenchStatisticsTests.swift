import Foundation
import Testing

@testable import SwitchyardBench
@testable import SwitchyardCommands

struct BenchStatisticsTests {
    @Test func percentilesAreNearestRank() {
        let sorted = (1...100).map(Double.init)
        #expect(LatencySummary.percentile(50, of: sorted) == 50)
        #expect(LatencySummary.percentile(90, of: sorted) == 90)
        #expect(LatencySummary.percentile(99, of: sorted) == 99)
        #expect(LatencySummary.percentile(100, of: sorted) == 100)
        #expect(LatencySummary.percentile(0, of: sorted) == 1)
        #expect(LatencySummary.percentile(99, of: [7]) == 7)
        #expect(LatencySummary.percentile(50, of: []) == 0)
        // Ten values: p50 is the 5th, p90 the 9th, p99 the 10th.
        let ten = (1...10).map(Double.init)
        #expect(LatencySummary.percentile(50, of: ten) == 5)
        #expect(LatencySummary.percentile(90, of: ten) == 9)
        #expect(LatencySummary.percentile(99, of: ten) == 10)
    }

    @Test func theSummaryIsInMillisecondsWhateverTheOrder() {
        let samples = (1...1000).map { Double($0) / 1000 }.shuffled()
        let summary = LatencySummary(seconds: samples)
        #expect(summary == LatencySummary(p50: 500, p90: 900, p99: 990, max: 1000))
        #expect(LatencySummary(seconds: []) == LatencySummary(p50: 0, p90: 0, p99: 0, max: 0))
    }

    @Test func overheadIsTheDifferencePerPercentile() {
        let switchyard = LatencySummary(p50: 12, p90: 20, p99: 31, max: 50)
        let provider = LatencySummary(p50: 10, p90: 15, p99: 25, max: 40)
        #expect(switchyard.minus(provider) == LatencySummary(p50: 2, p90: 5, p99: 6, max: 10))
    }

    @Test func aMeasureCountsSuccessesAndErrorsByStatus() {
        let measure = LoadMeasure(
            latencies: [0.01, 0.02, 0.03, 0.04], statuses: [201, 201, 429, 0], seconds: 2)
        #expect(measure.count == 4)
        #expect(measure.throughput == 1)
        #expect(measure.errors == ["429": 1, "0": 1])
        #expect(measure.errorText == "0×1 429×1")
        let clean = LoadMeasure(latencies: [0.01], statuses: [200], seconds: 0.5)
        #expect(clean.errorText == "0")
        #expect(clean.throughput == 2)
    }
}
