import NIOCore
import NIOPosix

/// The clock that plugin calls and worker processes are supervised by: a monotonic reading, and wake-ups
/// at a reading. Deadlines, the cancel grace and restart back-off are read and scheduled here only, so a
/// test drives them with a manual clock.
protocol PluginTimer: Sendable {
    /// The time now, from an origin of the clock's choosing.
    var now: Duration { get }
    /// Runs `work` once the clock reads `reading` or later (at once when it already does).
    func wake(at reading: Duration, _ work: @escaping @Sendable () -> Void) -> PluginWake
}

/// A scheduled wake-up, which can be called off.
struct PluginWake: Sendable {
    /// Calls the wake-up off; nothing happens when it already ran.
    let cancel: @Sendable () -> Void
}

/// The process's monotonic clock, waking on NIO's event loops (no thread of its own, no Dispatch timer).
struct EventLoopPluginTimer: PluginTimer {
    private static let origin = ContinuousClock.now

    var now: Duration { ContinuousClock.now - Self.origin }

    func wake(at reading: Duration, _ work: @escaping @Sendable () -> Void) -> PluginWake {
        let (seconds, attoseconds) = max(.zero, reading - now).components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let delay: TimeAmount =
            nanoseconds.overflow
            ? .hours(24 * 365) : .nanoseconds(nanoseconds.partialValue + attoseconds / 1_000_000_000)
        let task = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: delay, work)
        return PluginWake { task.cancel() }
    }
}
