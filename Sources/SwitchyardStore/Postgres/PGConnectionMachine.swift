/// What a non-blocking libpq connection does next, decided from libpq's answers: events in, actions out.
///
/// The machine does no I/O and reads no clock: ``PGConnection`` calls libpq, feeds its return codes and the
/// time in, and carries out the action that comes back (call `PQconnectPoll`, `PQflush`, `PQconsumeInput` or
/// `PQgetResult`, or wait on the socket through its ``PGEventLoop``). libpq keeps the protocol's own state;
/// the machine keeps what libpq leaves to its caller: which readiness to wait for, the connect deadline
/// (libpq ignores `connect_timeout` in its non-blocking API), and that a failure is final for the session.
struct PGConnectionMachine: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// No session; ``startConnect(now:timeout:)`` begins one.
        case closed
        /// `PQconnectPoll` is in progress and must end by `deadline`.
        case connecting(deadline: ContinuousClock.Instant)
        /// A session with nothing in flight.
        case idle
        /// A request is queued in libpq's output buffer and not all of it is sent yet.
        case flushing
        /// The request is sent; its results are awaited.
        case awaitingResults
        /// The session failed; it must be closed.
        case failed(Failure)
    }

    /// What went wrong; each ends the session.
    enum Failure: Sendable, Equatable {
        /// The connect deadline passed before the session was ready.
        case connectTimedOut
        /// `PQconnectPoll` reported failure (unreachable, refused, authentication, a standby only, …).
        case connectFailed
        /// libpq could not queue or send the request.
        case sendFailed
        /// Reading from the server failed: the connection is gone.
        case connectionLost
    }

    /// What the connection must do next.
    enum Action: Sendable, Equatable {
        /// Wait until the socket is ready for `interest`, or until `deadline`.
        case wait(PGEventLoop.Interest, deadline: ContinuousClock.Instant?)
        /// Call `PQconnectPoll` and report with ``connectPolled(_:)``.
        case pollConnect
        /// The session is open.
        case connected
        /// Call `PQflush` and report with ``flushed(_:busy:)``.
        case flush
        /// Call `PQconsumeInput` then `PQisBusy`, and report with ``consumed(ok:busy:)``.
        case consumeInput
        /// Call `PQgetResult` (it will not block) and report with ``readResult(more:busy:)``.
        case readResult
        /// Every result of the request was read.
        case finished
        /// Close the session and fail the caller.
        case fail(Failure)
    }

    /// What `PQconnectPoll` answered.
    enum ConnectPoll: Sendable, Equatable {
        case reading, writing, ok, failed
    }

    /// What `PQflush` answered: 0 all sent, 1 more to send, -1 failure.
    enum Flush: Sendable, Equatable {
        case done, more, failed
    }

    private(set) var state: State = .closed

    /// A session is being started (`PQconnectStartParams` succeeded): libpq's first step wants the socket
    /// writable, as if `PQconnectPoll` had answered "writing".
    mutating func startConnect(now: ContinuousClock.Instant, timeout: Duration) -> Action {
        let deadline = now.advanced(by: timeout)
        state = .connecting(deadline: deadline)
        return .wait(.writable, deadline: deadline)
    }

    /// `PQconnectPoll`'s answer.
    mutating func connectPolled(_ poll: ConnectPoll) -> Action {
        guard case .connecting(let deadline) = state else { return unexpected() }
        switch poll {
        case .reading: return .wait(.readable, deadline: deadline)
        case .writing: return .wait(.writable, deadline: deadline)
        case .ok:
            state = .idle
            return .connected
        case .failed: return fail(.connectFailed)
        }
    }

    /// A wait ended at `now`.
    mutating func woke(_ wake: PGEventLoop.Wake, now: ContinuousClock.Instant) -> Action {
        switch state {
        case .connecting(let deadline):
            if case .timedOut = wake { return fail(.connectTimedOut) }
            // A socket ready at the deadline still gets its poll: the deadline is for waiting only.
            _ = deadline
            return .pollConnect
        case .flushing:
            // Ready to write: send more. Readable: take in what the server sent first (it may be waiting
            // for us to read before it reads more), then send more.
            guard case .ready(let readable, _) = wake else { return .flush }
            return readable ? .consumeInput : .flush
        case .awaitingResults:
            return .consumeInput
        case .closed, .idle, .failed:
            return unexpected()
        }
    }

    /// A request was handed to libpq (`PQsendQuery…`, `PQpipelineSync`): `queued` is false when libpq refused it.
    mutating func sent(queued: Bool) -> Action {
        guard case .idle = state else { return unexpected() }
        guard queued else { return fail(.sendFailed) }
        state = .flushing
        return .flush
    }

    /// `PQflush`'s answer, and (when all was sent) what `PQisBusy` says: the answers may already be in,
    /// read while sending.
    mutating func flushed(_ flush: Flush, busy: Bool) -> Action {
        guard case .flushing = state else { return unexpected() }
        switch flush {
        case .done:
            state = .awaitingResults
            return busy ? .wait(.readable, deadline: nil) : .readResult
        case .more: return .wait([.readable, .writable], deadline: nil)
        case .failed: return fail(.sendFailed)
        }
    }

    /// `PQconsumeInput` (`ok`) and then `PQisBusy` (`busy`) answered.
    mutating func consumed(ok: Bool, busy: Bool) -> Action {
        switch state {
        case .flushing:
            return ok ? .flush : fail(.connectionLost)
        case .awaitingResults:
            guard ok else { return fail(.connectionLost) }
            return busy ? .wait(.readable, deadline: nil) : .readResult
        default:
            return unexpected()
        }
    }

    /// A result was read: `more` is false when `PQgetResult` returned the end of the request's results,
    /// `busy` what `PQisBusy` says now.
    mutating func readResult(more: Bool, busy: Bool) -> Action {
        guard case .awaitingResults = state else { return unexpected() }
        guard more else {
            state = .idle
            return .finished
        }
        return busy ? .wait(.readable, deadline: nil) : .readResult
    }

    /// The session was closed (by us, or after a failure).
    mutating func closed() {
        state = .closed
    }

    private mutating func fail(_ failure: Failure) -> Action {
        state = .failed(failure)
        return .fail(failure)
    }

    /// An event the state does not expect is a bug in the driver: the session is not trusted any more.
    private mutating func unexpected() -> Action {
        fail(.connectionLost)
    }
}
