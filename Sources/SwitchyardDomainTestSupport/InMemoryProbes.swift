import SwitchyardCore
import Synchronization

/// Readiness and scrape-time gauges a test sets: the database answers unless told otherwise.
public final class InMemoryProbes: OperationalProbes, Sendable {
    private struct State {
        var answers = true
        var current = StoreGauges(unknownPayments: 0, oldestUnknownSince: nil, webhookDeliveries: [:])
    }

    private let state = Mutex(State())

    public init() {}

    /// Makes the database answer `ping` (or not) and report `gauges`.
    public func set(answers: Bool, gauges: StoreGauges? = nil) {
        state.withLock { state in
            state.answers = answers
            if let gauges { state.current = gauges }
        }
    }

    public func ping() async -> Bool { state.withLock { $0.answers } }

    public func gauges() async throws -> StoreGauges { state.withLock { $0.current } }
}
