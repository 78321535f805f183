import Foundation

/// A clock that moves only when a test moves it; pass ``now`` (a `@Sendable () -> Date`) wherever a
/// clock is injected.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Starts at `start` (by default a fixed, whole-second instant, so stored times compare exactly).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = start
    }

    /// The clock's time.
    public var date: Date { lock.withLock { current } }

    /// The clock as an injectable function.
    public var now: @Sendable () -> Date { { [self] in date } }

    /// Moves the clock forward by `seconds`.
    public func advance(_ seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        lock.withLock { current = date }
    }
}
