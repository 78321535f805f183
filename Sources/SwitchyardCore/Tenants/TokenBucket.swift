import Foundation

/// A token bucket: holds at most `capacity` tokens, refilled continuously at `rate` tokens per second;
/// each admitted request takes one. A pure value: time is passed in (seconds on any monotonic scale).
public struct TokenBucket: Sendable, Equatable {
    /// Tokens added per second.
    public private(set) var rate: Double
    /// Most tokens held.
    public private(set) var capacity: Double
    /// Tokens held at ``updatedAt``.
    public private(set) var tokens: Double
    /// When ``tokens`` was last brought up to date.
    public private(set) var updatedAt: Double

    /// A full bucket at time `now`. A rate or capacity that is not positive and finite counts as the
    /// smallest usable one (one token a second, a bucket of one).
    public init(rate: Double, capacity: Int, now: Double) {
        self.rate = Self.usable(rate, floor: 1)
        self.capacity = Double(max(1, capacity))
        self.tokens = self.capacity
        self.updatedAt = now
    }

    /// The outcome of ``take(now:)``.
    public enum Decision: Sendable, Equatable {
        case admitted
        /// Refused; a token will be available after this many seconds (an integer, at least 1).
        case limited(retryAfterSeconds: Int)
    }

    /// Takes one token at time `now`, or says how long until one is available.
    public mutating func take(now: Double) -> Decision {
        refill(now: now)
        if tokens >= 1 {
            tokens -= 1
            return .admitted
        }
        let wait = (1 - tokens) / rate
        return .limited(retryAfterSeconds: Self.wholeSeconds(wait))
    }

    /// Applies new limits, keeping the tokens held (never more than the new capacity).
    public mutating func update(rate: Double, capacity: Int, now: Double) {
        refill(now: now)
        self.rate = Self.usable(rate, floor: 1)
        self.capacity = Double(max(1, capacity))
        tokens = min(tokens, self.capacity)
    }

    private mutating func refill(now: Double) {
        // A clock going backwards adds nothing.
        let elapsed = max(0, now - updatedAt)
        tokens = min(capacity, tokens + elapsed * rate)
        updatedAt = max(updatedAt, now)
    }

    private static func usable(_ value: Double, floor: Double) -> Double {
        value.isFinite && value > 0 ? value : floor
    }

    /// `seconds` rounded up to a whole number, at least 1 and at most a day.
    private static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 86_400 }
        return Int(min(86_400, max(1, seconds.rounded(.up))))
    }
}
