import Foundation
import ProviderKit

/// The circuit breakers of all provider accounts this process calls.
public actor ProviderHealth {
    /// One account's breaker as shown by the admin API.
    public struct Entry: Codable, Sendable, Equatable {
        public var accountId: UUID
        public var state: CircuitBreaker.State
        public var consecutiveFailures: Int
        public var openedAt: Date?
        public var retryAt: Date?
        public var timesOpened: Int
        public var timesClosed: Int
    }

    private var breakers: [UUID: CircuitBreaker] = [:]
    private let clock: @Sendable () -> Date

    public init(clock: @escaping @Sendable () -> Date) {
        self.clock = clock
    }

    /// Why the account cannot take traffic now, or nil when it can.
    public func unavailability(of accountId: UUID) -> String? {
        guard let breaker = breakers[accountId], !breaker.isAvailable(at: clock()) else { return nil }
        if let retryAt = breaker.retryAt {
            return "circuit open until \(ISO8601DateFormatter().string(from: retryAt))"
        }
        return "circuit half-open, probe in flight"
    }

    /// Asks to call the account now (takes the half-open probe when it is the caller's turn).
    public func permit(_ accountId: UUID, settings: CircuitBreaker.Settings) -> Bool {
        var breaker = breakers[accountId] ?? CircuitBreaker(settings: settings)
        breaker.settings = settings
        let allowed = breaker.permit(at: clock())
        breakers[accountId] = breaker
        return allowed
    }

    /// Records what a call to the account came to.
    public func record(_ accountId: UUID, outcome: Outcome.Kind, settings: CircuitBreaker.Settings) {
        let result = Self.result(of: outcome)
        var breaker = breakers[accountId] ?? CircuitBreaker(settings: settings)
        breaker.settings = settings
        breaker.record(result, at: clock())
        breakers[accountId] = breaker
    }

    /// The breakers' states, optionally only for some accounts.
    public func snapshot(accounts: Set<UUID>? = nil) -> [Entry] {
        breakers.filter { accounts?.contains($0.key) ?? true }.map { id, b in
            Entry(
                accountId: id, state: b.state, consecutiveFailures: b.consecutiveFailures, openedAt: b.openedAt,
                retryAt: b.retryAt, timesOpened: b.timesOpened, timesClosed: b.timesClosed)
        }.sorted { $0.accountId.uuidString < $1.accountId.uuidString }
    }

    /// How an outcome counts for the breaker: not reached and no answer are failures; an expired access
    /// token says nothing about the provider's health.
    static func result(of outcome: Outcome.Kind) -> CircuitBreaker.Result {
        switch outcome {
        case .notSent, .unknown: return .failure
        case .authExpired: return .neutral
        case .succeeded, .authorized, .pending, .declined, .canceled: return .success
        }
    }
}
