import Foundation
import Synchronization

/// Each account's overdue threshold (see ``OverdueNotifications/threshold(observed:)``), read from the
/// accounts' observed percentiles (computed by the store) at most every ``refresh`` seconds, so a janitor
/// that looks every second does not read them every second.
final class OverdueThresholds: Sendable {
    /// How long thresholds are kept before they are read again, in seconds.
    static let refresh: TimeInterval = 30

    private let cached = Mutex<(at: Date, thresholds: [UUID: TimeInterval])?>(nil)

    /// The thresholds at `now`: the cached ones while fresh, else those of the `observed` percentiles under
    /// `policy`.
    func thresholds(
        at now: Date, policy: OverdueNotifications, observed: () async throws -> [UUID: TimeInterval]
    ) async throws -> [UUID: TimeInterval] {
        if let cached = cached.withLock({ $0 }), now.timeIntervalSince(cached.at) < Self.refresh,
            now >= cached.at
        {
            return cached.thresholds
        }
        let thresholds = try await observed().mapValues { policy.threshold(observed: $0) }
        cached.withLock { $0 = (now, thresholds) }
        return thresholds
    }
}
