import Testing

@testable import PluginHost

/// A worker connection's handshake and end without a process: events in, actions out.
struct WorkerConnectionMachineTests {
    @Test func aWorkerThatCreatesItsInstanceServesUntilItEnds() {
        var connection = WorkerConnectionMachine(handshakeUntil: .seconds(5))
        #expect(connection.wakeAt == .seconds(5))
        #expect(!connection.isServing)
        #expect(connection.ready() == .ready)
        #expect(connection.isServing)
        #expect(connection.wakeAt == nil)
        #expect(connection.tick(now: .seconds(9)) == .none, "the handshake's time no longer matters")
        #expect(connection.failed("late") == .none)
        #expect(connection.exited("was killed by signal 11") == .ended("was killed by signal 11", refusal: nil))
        #expect(!connection.isServing)
        #expect(connection.exited("again") == .none, "an end is reported once")
    }

    @Test func aSilentWorkerIsRefusedAtItsTimeAndNotBefore() {
        var connection = WorkerConnectionMachine(handshakeUntil: .seconds(5))
        #expect(connection.tick(now: .milliseconds(4_999)) == .none)
        #expect(connection.tick(now: .seconds(5)) == .refuse("the plugin worker did not create an instance in time"))
        #expect(connection.ready() == .none, "a ready after the refusal does not serve")
        #expect(!connection.isServing)
        #expect(connection.exited("was killed by signal 9") == .ended("was killed by signal 9", refusal: nil))
    }

    @Test func aWorkerThatFailsOrDiesInItsHandshakeRefusesTheLaunch() {
        var failing = WorkerConnectionMachine(handshakeUntil: .seconds(5))
        #expect(
            failing.failed("the plugin's create returned no instance")
                == .refuse("the plugin's create returned no instance"))
        #expect(failing.tick(now: .seconds(6)) == .none)

        var dying = WorkerConnectionMachine(handshakeUntil: .seconds(5))
        #expect(
            dying.exited("was killed by signal 11")
                == .ended(
                    "was killed by signal 11",
                    refusal: "the plugin worker was killed by signal 11 before creating an instance"))
    }
}
