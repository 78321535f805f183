#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization

/// The server's clock as the worker process knows it: the time carried by the latest frame that
/// resumed plugin work (an invocation or a send result), plus the monotonic time elapsed since that
/// frame arrived. `now_ms` never waits for the server. Before the first such frame it is the wall clock.
final class WorkerClock: Sendable {
    private struct Reading {
        var serverMs: Int64
        var arrived: ContinuousClock.Instant
    }

    private let latest = Mutex<Reading?>(nil)

    /// Records the server's clock `serverMs` carried by a frame that arrived just now.
    func update(_ serverMs: Int64) {
        let reading = Reading(serverMs: serverMs, arrived: .now)
        latest.withLock { $0 = reading }
    }

    /// Milliseconds since the Unix epoch by the server's clock.
    func nowMilliseconds() -> Int64 {
        guard let reading = latest.withLock({ $0 }) else {
            return Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        }
        let elapsed = ContinuousClock.now - reading.arrived
        let (seconds, attoseconds) = elapsed.components
        return reading.serverMs &+ seconds * 1000 &+ attoseconds / 1_000_000_000_000_000
    }
}
