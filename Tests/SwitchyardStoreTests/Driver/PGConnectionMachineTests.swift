import Testing

@testable import SwitchyardStore

/// The connection's steps without I/O: libpq's answers and the time go in, the next action comes out.
@Suite("Connection machine")
struct PGConnectionMachineTests {
    let start = ContinuousClock.now

    @Test func connectWaitsForWhatPollAsksThenIsIdle() {
        var machine = PGConnectionMachine()
        let deadline = start.advanced(by: .seconds(10))
        #expect(machine.startConnect(now: start, timeout: .seconds(10)) == .wait(.writable, deadline: deadline))
        #expect(machine.woke(.ready(readable: false, writable: true), now: start) == .pollConnect)
        #expect(machine.connectPolled(.reading) == .wait(.readable, deadline: deadline))
        #expect(machine.woke(.ready(readable: true, writable: false), now: start) == .pollConnect)
        #expect(machine.connectPolled(.writing) == .wait(.writable, deadline: deadline))
        #expect(machine.woke(.ready(readable: false, writable: true), now: start) == .pollConnect)
        #expect(machine.connectPolled(.ok) == .connected)
        #expect(machine.state == .idle)
    }

    @Test func connectFailsAtTheDeadlineAndOnAFailedPoll() {
        var timedOut = PGConnectionMachine()
        _ = timedOut.startConnect(now: start, timeout: .seconds(2))
        #expect(timedOut.woke(.timedOut, now: start.advanced(by: .seconds(2))) == .fail(.connectTimedOut))
        #expect(timedOut.state == .failed(.connectTimedOut))

        var refused = PGConnectionMachine()
        _ = refused.startConnect(now: start, timeout: .seconds(2))
        #expect(refused.woke(.ready(readable: true, writable: true), now: start) == .pollConnect)
        #expect(refused.connectPolled(.failed) == .fail(.connectFailed))
    }

    @Test func aRequestIsFlushedThenItsResultsAreReadUntilTheEnd() {
        var machine = connected()
        #expect(machine.sent(queued: true) == .flush)
        #expect(machine.flushed(.done, busy: true) == .wait(.readable, deadline: nil))
        #expect(machine.woke(.ready(readable: true, writable: false), now: start) == .consumeInput)
        // Part of the answer: wait for more.
        #expect(machine.consumed(ok: true, busy: true) == .wait(.readable, deadline: nil))
        #expect(machine.woke(.ready(readable: true, writable: false), now: start) == .consumeInput)
        #expect(machine.consumed(ok: true, busy: false) == .readResult)
        #expect(machine.readResult(more: true, busy: false) == .readResult)
        #expect(machine.readResult(more: false, busy: false) == .finished)
        #expect(machine.state == .idle)
        // The session takes the next request.
        #expect(machine.sent(queued: true) == .flush)
    }

    @Test func answersAlreadyInWhenSendingEndsAreReadWithoutWaiting() {
        var machine = connected()
        _ = machine.sent(queued: true)
        #expect(machine.flushed(.done, busy: false) == .readResult)
    }

    @Test func aLongRequestWaitsForEitherReadinessAndReadsBeforeSendingMore() {
        var machine = connected()
        _ = machine.sent(queued: true)
        #expect(machine.flushed(.more, busy: true) == .wait([.readable, .writable], deadline: nil))
        // The server talks first: take its bytes in, then send more.
        #expect(machine.woke(.ready(readable: true, writable: false), now: start) == .consumeInput)
        #expect(machine.consumed(ok: true, busy: true) == .flush)
        #expect(machine.flushed(.more, busy: true) == .wait([.readable, .writable], deadline: nil))
        #expect(machine.woke(.ready(readable: false, writable: true), now: start) == .flush)
        #expect(machine.flushed(.done, busy: true) == .wait(.readable, deadline: nil))
    }

    @Test func aResultReadWhileMoreIsOnTheWayWaitsForIt() {
        var machine = connected()
        _ = machine.sent(queued: true)
        _ = machine.flushed(.done, busy: false)
        #expect(machine.readResult(more: true, busy: true) == .wait(.readable, deadline: nil))
    }

    @Test func failuresEndTheSession() {
        var refused = connected()
        #expect(refused.sent(queued: false) == .fail(.sendFailed))

        var unsent = connected()
        _ = unsent.sent(queued: true)
        #expect(unsent.flushed(.failed, busy: false) == .fail(.sendFailed))

        var lost = connected()
        _ = lost.sent(queued: true)
        _ = lost.flushed(.done, busy: true)
        _ = lost.woke(.ready(readable: true, writable: false), now: start)
        #expect(lost.consumed(ok: false, busy: false) == .fail(.connectionLost))
        #expect(lost.state == .failed(.connectionLost))

        var lostWhileSending = connected()
        _ = lostWhileSending.sent(queued: true)
        _ = lostWhileSending.flushed(.more, busy: true)
        _ = lostWhileSending.woke(.ready(readable: true, writable: true), now: start)
        #expect(lostWhileSending.consumed(ok: false, busy: false) == .fail(.connectionLost))
    }

    @Test func eventsOutOfTurnAreNeverTrusted() {
        var idle = connected()
        #expect(idle.readResult(more: true, busy: false) == .fail(.connectionLost))

        var closed = PGConnectionMachine()
        #expect(closed.sent(queued: true) == .fail(.connectionLost))

        var busy = connected()
        _ = busy.sent(queued: true)
        // A second request while one is in flight.
        #expect(busy.sent(queued: true) == .fail(.connectionLost))

        var failed = connected()
        _ = failed.sent(queued: false)
        #expect(failed.woke(.ready(readable: true, writable: true), now: start) == .fail(.connectionLost))
        failed.closed()
        #expect(failed.state == .closed)
    }

    @Test func pollTimeoutRoundsUpAndBoundsTheWait() {
        #expect(PGEventLoop.pollTimeout(until: nil, now: start) == -1)
        #expect(PGEventLoop.pollTimeout(until: start, now: start) == 0)
        #expect(PGEventLoop.pollTimeout(until: start.advanced(by: .microseconds(1)), now: start) == 1)
        #expect(PGEventLoop.pollTimeout(until: start.advanced(by: .milliseconds(250)), now: start) == 250)
        #expect(PGEventLoop.pollTimeout(until: start.advanced(by: .seconds(86_400 * 365)), now: start) == Int32.max)
    }

    @Test func connectTimeoutIsPerHostAndTheStringWins() {
        #expect(PGConnection.connectTimeout(connectionString: "host=a dbname=x", seconds: 10) == .seconds(10))
        #expect(PGConnection.connectTimeout(connectionString: "host=a,b,c dbname=x", seconds: 4) == .seconds(12))
        #expect(
            PGConnection.connectTimeout(connectionString: "postgresql://a,b/x?connect_timeout=3", seconds: 10)
                == .seconds(6))
        #expect(
            PGConnection.connectTimeout(connectionString: "host=a connect_timeout=0", seconds: 10) > .seconds(86_400))
    }

    private func connected() -> PGConnectionMachine {
        var machine = PGConnectionMachine()
        _ = machine.startConnect(now: start, timeout: .seconds(1))
        _ = machine.woke(.ready(readable: false, writable: true), now: start)
        _ = machine.connectPolled(.ok)
        return machine
    }
}
