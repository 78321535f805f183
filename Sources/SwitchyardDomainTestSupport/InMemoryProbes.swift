import Foundation
import SwitchyardCore

/// Readiness and scrape-time gauges a test sets: the database answers unless told otherwise.
public final class InMemoryProbes: OperationalProbes, @unchecked Sendable {
    private let lock = NSLock()
    private var answers = true
    private var current = StoreGauges(unknownPayments: 0, oldestUnknownSince: nil, webhookDeliveries: [:])

    public init() {}

    /// Makes the database answer `ping` (or not) and report `gauges`.
    public func set(answers: Bool, gauges: StoreGauges? = nil) {
        lock.withLock {
            self.answers = answers
            if let gauges { current = gauges }
        }
    }

    public func ping() async -> Bool { lock.withLock { answers } }

    public func gauges() async throws -> StoreGauges { lock.withLock { current } }
}
