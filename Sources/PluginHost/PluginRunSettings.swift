import Foundation

/// How accepted plugins run: where (the policy's isolation), within which deadline, and how their worker
/// processes are supervised.
public struct PluginRunSettings: Sendable {
    /// The executable for worker processes; `nil` makes process isolation impossible (such plugins are
    /// refused with `isolation_unavailable`, never run in process instead).
    public var executable: PluginExecutable?
    /// The policy whose entries name each plugin's isolation; `nil` runs plugins in process (a loader used
    /// on its own, outside a registry).
    public var policy: PluginPolicy?
    /// Every plugin call is answered by then: by the plugin, or by the host.
    public var callDeadline: Duration = .seconds(20)
    /// After the deadline the host asks the plugin to cancel and waits this long before answering itself.
    public var cancelGrace: Duration = .seconds(1)
    /// Worker deaths within ``crashWindow`` that quarantine the plugin file.
    public var crashLimit = 3
    /// The window for ``crashLimit``.
    public var crashWindow: Duration = .seconds(300)
    /// Delay before the first restart of a dead worker; it doubles with each further death in the window.
    public var restartBackoff: Duration = .milliseconds(200)
    /// Threads running one in-process plugin's calls.
    public var inProcessThreads = 4
    /// The clock of call deadlines, the cancel grace and worker restarts.
    var timer: any PluginTimer = EventLoopPluginTimer()

    public init(executable: PluginExecutable? = nil) {
        self.executable = executable
    }

    /// The settings of the load in progress (set by the registry around each load).
    @TaskLocal static var current: PluginRunSettings?

    /// Where plugin `id` runs under these settings.
    func isolation(for id: String) -> PluginIsolation {
        policy?.isolation(for: id) ?? .inProcess
    }
}

extension Duration {
    /// The duration as a Dispatch interval (whole nanoseconds).
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(
            Int(min(seconds, Int64(Int.max / 1_000_000_000 - 1))) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
