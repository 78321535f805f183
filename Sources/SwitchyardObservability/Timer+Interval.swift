import Metrics

extension Metrics.Timer {
    /// Records the time elapsed since `start`.
    public func recordInterval(since start: ContinuousClock.Instant) {
        record(ContinuousClock.now - start)
    }

    /// Records `duration`.
    public func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
