/// The life of one plugin's worker processes, as a value: a worker that dies is restarted after a
/// back-off that doubles with each death within the crash window, and the crash limit within the window
/// quarantines the plugin until a new file replaces it. Events in, actions out; times are readings of the
/// ``PluginTimer`` its driver uses.
struct WorkerSupervision: Sendable, Equatable {
    /// Where the plugin's worker is.
    enum State: Sendable, Equatable {
        /// A worker serves calls.
        case running
        /// No worker runs; one is started at the reading.
        case restarting(at: Duration)
        /// Too many deaths: nothing is started again.
        case quarantined(reason: String)
        /// The instance was let go: nothing is started again.
        case stopped
    }

    /// What the driver does after an event.
    enum Action: Sendable, Equatable {
        case none
        /// Start a new worker at the reading (the deaths within the window so far, and the delay).
        case restart(at: Duration, deaths: Int, delay: Duration)
        /// Serve nothing more.
        case quarantine(reason: String, deaths: Int)
    }

    let crashLimit: Int
    let crashWindow: Duration
    let restartBackoff: Duration
    private(set) var state = State.running
    private var deaths: [Duration] = []

    init(crashLimit: Int, crashWindow: Duration, restartBackoff: Duration) {
        self.crashLimit = crashLimit
        self.crashWindow = crashWindow
        self.restartBackoff = restartBackoff
    }

    /// The serving worker ended (`description` says how), or a new one could not be started, at `now`.
    mutating func died(_ description: String, at now: Duration) -> Action {
        switch state {
        case .quarantined, .stopped:
            return .none
        case .running, .restarting:
            break
        }
        deaths.append(now)
        deaths.removeAll { now - $0 > crashWindow }
        let count = deaths.count
        if count >= crashLimit {
            let reason = "\(description); \(count) worker deaths within \(Int(crashWindow.seconds)) s"
            state = .quarantined(reason: reason)
            return .quarantine(reason: reason, deaths: count)
        }
        let delay = restartBackoff * (1 << min(count - 1, 8))
        state = .restarting(at: now + delay)
        return .restart(at: now + delay, deaths: count, delay: delay)
    }

    /// The restart's time came at `now`: whether to start a worker now.
    func shouldStart(at now: Duration) -> Bool {
        guard case .restarting(let at) = state else { return false }
        return now >= at
    }

    /// A new worker serves calls.
    mutating func started() {
        if case .restarting = state { state = .running }
    }

    /// The instance is let go.
    mutating func stop() {
        state = .stopped
    }

    /// Why the plugin serves nothing, when quarantined.
    var quarantineReason: String? {
        guard case .quarantined(let reason) = state else { return nil }
        return reason
    }
}
