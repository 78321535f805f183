import Foundation

/// A circuit breaker for one provider account: a pure value type driven with an explicit time.
///
/// Closed, it lets every call through and counts consecutive failures (`notSent`, timeouts); reaching
/// the threshold within the window opens it. Open, it refuses calls until the cool-down has passed;
/// then the next caller gets the single probe (half-open). The probe's success closes it, its failure
/// opens it again.
public struct CircuitBreaker: Sendable, Equatable {
    /// The breaker's state.
    public enum State: String, Codable, Sendable {
        case closed
        case open
        case halfOpen = "half_open"
    }

    /// What one call through the breaker came to.
    public enum Result: Sendable, Equatable {
        /// The provider answered (whatever the answer).
        case success
        /// The provider could not be reached or did not answer in time.
        case failure
        /// Says nothing about the provider's health (e.g. our access token expired): counts for nothing,
        /// but ends a half-open probe so that the next caller probes.
        case neutral
    }

    /// Thresholds.
    public struct Settings: Sendable, Equatable {
        public var failureThreshold: Int
        public var window: TimeInterval
        public var coolDown: TimeInterval

        public init(failureThreshold: Int, window: TimeInterval, coolDown: TimeInterval) {
            self.failureThreshold = max(1, failureThreshold)
            self.window = window
            self.coolDown = coolDown
        }
    }

    public var settings: Settings
    public private(set) var state: State = .closed
    public private(set) var consecutiveFailures = 0
    public private(set) var firstFailureAt: Date?
    public private(set) var openedAt: Date?
    public private(set) var probeInFlight = false
    /// When the half-open probe was handed out; a probe unanswered for a cool-down is taken as lost.
    public private(set) var probeStartedAt: Date?
    /// How many times the breaker has opened.
    public private(set) var timesOpened = 0
    /// How many times it has closed again after opening.
    public private(set) var timesClosed = 0

    public init(settings: Settings) {
        self.settings = settings
    }

    /// Whether a call may go out now; taking the half-open probe marks it in flight.
    public mutating func permit(at now: Date) -> Bool {
        switch state {
        case .closed:
            return true
        case .open:
            guard let openedAt, now.timeIntervalSince(openedAt) >= settings.coolDown else { return false }
            state = .halfOpen
            return takeProbe(at: now)
        case .halfOpen:
            if probeInFlight && !probeLost(at: now) { return false }
            return takeProbe(at: now)
        }
    }

    private mutating func takeProbe(at now: Date) -> Bool {
        probeInFlight = true
        probeStartedAt = now
        return true
    }

    /// A probe whose caller never reported back (it failed before calling, say) must not keep the
    /// breaker half-open for ever.
    private func probeLost(at now: Date) -> Bool {
        probeStartedAt.map { now.timeIntervalSince($0) >= settings.coolDown } ?? true
    }

    /// Whether a call would be permitted now, without taking the probe (for routing and display).
    public func isAvailable(at now: Date) -> Bool {
        switch state {
        case .closed: return true
        case .open: return openedAt.map { now.timeIntervalSince($0) >= settings.coolDown } ?? true
        case .halfOpen: return !probeInFlight || probeLost(at: now)
        }
    }

    /// When an open breaker lets the next probe through.
    public var retryAt: Date? {
        state == .open ? openedAt.map { $0.addingTimeInterval(settings.coolDown) } : nil
    }

    /// Records what a permitted call came to.
    public mutating func record(_ result: Result, at now: Date) {
        switch (state, result) {
        case (.closed, .success):
            consecutiveFailures = 0
            firstFailureAt = nil
        case (.closed, .failure):
            if let first = firstFailureAt, now.timeIntervalSince(first) <= settings.window {
                consecutiveFailures += 1
            } else {
                consecutiveFailures = 1
                firstFailureAt = now
            }
            if consecutiveFailures >= settings.failureThreshold { open(at: now) }
        case (.halfOpen, .success):
            state = .closed
            probeInFlight = false
            consecutiveFailures = 0
            firstFailureAt = nil
            openedAt = nil
            timesClosed += 1
        case (.halfOpen, .failure):
            probeInFlight = false
            open(at: now)
        case (.halfOpen, .neutral):
            probeInFlight = false
        case (.closed, .neutral), (.open, _):
            // A late answer of a call that started before the breaker opened changes nothing.
            break
        }
    }

    private mutating func open(at now: Date) {
        state = .open
        openedAt = now
        timesOpened += 1
    }
}
