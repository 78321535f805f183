import Foundation
import Testing

@testable import SwitchyardCore

/// A rollout's curves: the bucket width follows from the elapsed time, the number of buckets stays bounded,
/// and each point carries the cumulative answers and the decision's interval at that point.
struct RolloutSeriesTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let settings = RolloutSettings(share: 0.2, guardrail: 0.03, minSamples: 100, maxDuration: 86_400)

    @Test func theBucketWidthIsTheSmallestStepThatCoversTheElapsedTime() {
        #expect(RolloutSeries.bucketSeconds(elapsed: 0, buckets: 60) == 1)
        #expect(RolloutSeries.bucketSeconds(elapsed: 45, buckets: 60) == 1)
        #expect(RolloutSeries.bucketSeconds(elapsed: 61, buckets: 60) == 2)
        #expect(RolloutSeries.bucketSeconds(elapsed: 3_600, buckets: 60) == 60)
        #expect(RolloutSeries.bucketSeconds(elapsed: 3_601, buckets: 60) == 120)
        #expect(RolloutSeries.bucketSeconds(elapsed: 7 * 86_400, buckets: 60) == 10_800)
        // Beyond the steps: whole days.
        #expect(RolloutSeries.bucketSeconds(elapsed: 400 * 86_400, buckets: 10) == 40 * 86_400)
        // The number of buckets is clamped to 1…200, nonsense elapsed times read as none.
        #expect(RolloutSeries.bucketSeconds(elapsed: 1_000, buckets: 0) == 1_800)
        #expect(RolloutSeries.bucketSeconds(elapsed: 1_000, buckets: 10_000) == 5)
        #expect(RolloutSeries.bucketSeconds(elapsed: -5, buckets: 60) == 1)
        #expect(RolloutSeries.bucketSeconds(elapsed: .infinity, buckets: 60) == 1)
    }

    @Test func theSeriesNeverHasMoreBucketsThanAskedFor() {
        for elapsed in [0.5, 59, 60, 61, 3_599, 86_400, 9_999_999] as [TimeInterval] {
            for buckets in [1, 7, 60, 200] {
                let width = RolloutSeries.bucketSeconds(elapsed: elapsed, buckets: buckets)
                let series = RolloutSeries(
                    settings: settings, startedAt: start, end: start.addingTimeInterval(elapsed),
                    bucketSeconds: width, counts: [])
                #expect(series.points.count >= 1)
                #expect(series.points.count <= buckets, "\(elapsed) s in \(buckets) buckets")
                #expect(series.points.last?.elapsedSeconds == elapsed, "the last point ends at the end")
            }
        }
    }

    @Test func eachPointCountsEveryAnswerUpToItWithTheDecisionsInterval() throws {
        let counts = [
            RolloutSeries.Count(bucket: 0, arm: .control, samples: 40, approved: 36),
            RolloutSeries.Count(bucket: 0, arm: .draft, samples: 10, approved: 9),
            RolloutSeries.Count(bucket: 2, arm: .control, samples: 60, approved: 48),
            RolloutSeries.Count(bucket: 2, arm: .draft, samples: 15, approved: 10),
            // A clock a little off: before the start counts in the first bucket, after the end in the last.
            RolloutSeries.Count(bucket: -1, arm: .draft, samples: 1, approved: 1),
            RolloutSeries.Count(bucket: 9, arm: .control, samples: 2, approved: 0),
        ]
        let series = RolloutSeries(
            settings: settings, startedAt: start, end: start.addingTimeInterval(250), bucketSeconds: 100,
            counts: counts)
        #expect(series.bucketSeconds == 100)
        #expect(series.points.map(\.elapsedSeconds) == [100, 200, 250])
        #expect(series.points.map(\.at) == [100, 200, 250].map { start.addingTimeInterval($0) })
        #expect(series.points.map(\.control.samples) == [40, 40, 102])
        #expect(series.points.map(\.control.approved) == [36, 36, 84])
        #expect(series.points.map(\.draft.samples) == [11, 11, 26])
        #expect(series.points.map(\.draft.approved) == [10, 10, 20])
        let last = try #require(series.points.last)
        let decision = RolloutDecision(
            settings: settings, startedAt: start, control: .init(samples: 102, approved: 84),
            draft: .init(samples: 26, approved: 20))
        #expect(last.interval == decision.interval)
        #expect(series.points[0].interval != series.points[2].interval, "the interval moves with the answers")
    }

    @Test func aPointWithoutAnswersOnAnArmHasNoInterval() {
        let series = RolloutSeries(
            settings: settings, startedAt: start, end: start.addingTimeInterval(30), bucketSeconds: 10,
            counts: [.init(bucket: 1, arm: .control, samples: 5, approved: 4)])
        #expect(series.points.count == 3)
        #expect(series.points.allSatisfy { $0.interval == nil })
        #expect(series.points.map(\.control.rate) == [nil, 0.8, 0.8])
    }
}
