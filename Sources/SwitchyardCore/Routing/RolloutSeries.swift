import Foundation

/// A guarded rollout's curves, as a pure value: per time bucket since the start, each arm's cumulative
/// answers and authorisation rate, and the interval for draft − control as ``RolloutDecision`` computes it
/// at that point.
///
/// The bucket width follows from the elapsed time and the number of buckets asked for (at most
/// ``maximumBuckets``): the smallest step of ``steps`` that covers the elapsed time in that many buckets, so
/// the size of a series is bounded however long the rollout ran.
public struct RolloutSeries: Sendable, Equatable {
    /// The answers one arm got within one bucket, as the store groups them.
    public struct Count: Sendable, Equatable {
        /// The bucket: `0` starts at the rollout's start.
        public var bucket: Int
        public var arm: RolloutArm
        public var samples: Int
        public var approved: Int

        public init(bucket: Int, arm: RolloutArm, samples: Int, approved: Int) {
            self.bucket = bucket
            self.arm = arm
            self.samples = samples
            self.approved = approved
        }
    }

    /// The figures at the end of one bucket, counting every answer up to it.
    public struct Point: Sendable, Equatable {
        /// The end of the bucket (the series' end for the last one).
        public var at: Date
        public var elapsedSeconds: Double
        public var control: RolloutDecision.Tally
        public var draft: RolloutDecision.Tally
        /// The interval for draft − control, nil until both arms have answers.
        public var interval: RolloutDecision.Interval?
    }

    /// The most buckets a series has, and the default.
    public static let maximumBuckets = 200
    public static let defaultBuckets = 60
    /// Bucket widths in seconds, smallest first; beyond the last, whole days.
    public static let steps = [
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200,
    ]

    /// The width of a bucket, in seconds.
    public var bucketSeconds: Int
    /// One point per bucket, oldest first; never empty.
    public var points: [Point]

    /// The bucket width for `elapsed` seconds in at most `buckets` buckets (clamped to
    /// 1...``maximumBuckets``): the smallest step that fits, else the smallest number of whole days.
    public static func bucketSeconds(elapsed: TimeInterval, buckets: Int) -> Int {
        let buckets = min(max(buckets, 1), maximumBuckets)
        let seconds = elapsed.isFinite ? min(max(elapsed, 0), 100 * 365 * 86_400) : 0
        let needed = max(1, Int((seconds / Double(buckets)).rounded(.up)))
        if let step = steps.first(where: { $0 >= needed }) { return step }
        return (needed + 86_399) / 86_400 * 86_400
    }

    /// How many buckets of `width` seconds cover `elapsed` seconds: at least one.
    public static func bucketCount(elapsed: TimeInterval, width: Int) -> Int {
        guard elapsed.isFinite, elapsed > 0, width > 0 else { return 1 }
        return max(1, Int((elapsed / Double(width)).rounded(.up)))
    }

    /// The series of a rollout started at `startedAt` under `settings`, from `startedAt` to `end`, from the
    /// per-bucket `counts` grouped by buckets of `bucketSeconds`. A count outside the series' buckets (a
    /// clock a little off) goes to the nearest one.
    public init(
        settings: RolloutSettings, startedAt: Date, end: Date, bucketSeconds: Int, counts: [Count]
    ) {
        let width = max(1, bucketSeconds)
        let elapsed = max(0, end.timeIntervalSince(startedAt))
        let count = Self.bucketCount(elapsed: elapsed, width: width)
        var added = Array(repeating: (control: RolloutDecision.Tally(), draft: RolloutDecision.Tally()), count: count)
        for c in counts {
            let index = min(max(c.bucket, 0), count - 1)
            let tally = RolloutDecision.Tally(samples: max(0, c.samples), approved: max(0, c.approved))
            switch c.arm {
            case .control: added[index].control = added[index].control.adding(tally)
            case .draft: added[index].draft = added[index].draft.adding(tally)
            }
        }
        var decision = RolloutDecision(settings: settings, startedAt: startedAt)
        var points: [Point] = []
        points.reserveCapacity(count)
        for (index, bucket) in added.enumerated() {
            decision.control = decision.control.adding(bucket.control)
            decision.draft = decision.draft.adding(bucket.draft)
            let offset = min(Double(index + 1) * Double(width), elapsed)
            points.append(
                Point(
                    at: startedAt.addingTimeInterval(offset), elapsedSeconds: offset, control: decision.control,
                    draft: decision.draft, interval: decision.interval))
        }
        self.bucketSeconds = width
        self.points = points
    }
}
