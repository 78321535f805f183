import Foundation
import Synchronization

/// A clock that moves only when a test moves it; pass ``now`` (a `@Sendable () -> Date`) wherever a
/// clock is injected.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at `start` (by default a fixed, whole-second instant, so stored times compare exactly).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The clock's time.
    public var date: Date { current.withLock { $0 } }

    /// The clock as an injectable function.
    public var now: @Sendable () -> Date { { [self] in date } }

    /// Moves the clock forward by `seconds`.
    public func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
