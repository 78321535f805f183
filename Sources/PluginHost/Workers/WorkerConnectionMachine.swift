/// The life of one worker process's connection, as a value: the handshake (the worker creates its
/// instance, reports that it could not, or stays silent past its time), serving, and the end of its stream.
/// Events in, actions out; times are readings of the ``PluginTimer`` that ticks it.
struct WorkerConnectionMachine: Sendable, Equatable {
    /// Where the connection is.
    enum State: Sendable, Equatable {
        /// Waiting for the worker's `ready` or `failed` until the reading.
        case handshaking(until: Duration)
        /// The instance exists; calls are served.
        case serving
        /// The handshake failed: the worker is killed and its end awaited.
        case refused(String)
        /// The process ended and was reaped.
        case ended(String)
    }

    /// What the driver does after an event.
    enum Action: Sendable, Equatable {
        case none
        /// The launch succeeds.
        case ready
        /// The launch fails with this reason; the process is killed.
        case refuse(String)
        /// The process ended (how): answer its calls in flight and report the exit; `refusal` is the
        /// launch's failure when the end came during the handshake.
        case ended(String, refusal: String?)
    }

    private(set) var state: State

    /// A connection whose worker must create its instance by `until`.
    init(handshakeUntil until: Duration) {
        state = .handshaking(until: until)
    }

    /// When the driver must tick the machine next.
    var wakeAt: Duration? {
        guard case .handshaking(let until) = state else { return nil }
        return until
    }

    /// The worker created its instance.
    mutating func ready() -> Action {
        guard case .handshaking = state else { return .none }
        state = .serving
        return .ready
    }

    /// The worker could not create its instance.
    mutating func failed(_ reason: String) -> Action {
        guard case .handshaking = state else { return .none }
        state = .refused(reason)
        return .refuse(reason)
    }

    /// The clock reads `now`.
    mutating func tick(now: Duration) -> Action {
        guard case .handshaking(let until) = state, now >= until else { return .none }
        let reason = "the plugin worker did not create an instance in time"
        state = .refused(reason)
        return .refuse(reason)
    }

    /// The worker's process ended (`description` says how) and was reaped.
    mutating func exited(_ description: String) -> Action {
        switch state {
        case .handshaking:
            state = .ended(description)
            return .ended(description, refusal: "the plugin worker \(description) before creating an instance")
        case .serving, .refused:
            state = .ended(description)
            return .ended(description, refusal: nil)
        case .ended:
            return .none
        }
    }

    /// Whether calls may be written to the worker.
    var isServing: Bool { state == .serving }
}
