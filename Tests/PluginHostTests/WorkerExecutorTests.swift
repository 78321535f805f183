import Glibc
import Synchronization
import Testing

@testable import PluginWorkerCore

/// The worker's executor without a worker: this test's thread plays the reader.
@Suite struct WorkerExecutorTests {
    /// What the jobs record, shared with them.
    final class Record<Value: Sendable>: Sendable {
        let values = Mutex<[Value]>([])
        func append(_ value: Value) { values.withLock { $0.append(value) } }
        var all: [Value] { values.withLock { $0 } }
    }

    /// Whether the executor's wake-up is readable within `milliseconds`.
    private func woken(_ executor: WorkerExecutor, within milliseconds: Int32) -> Bool {
        var wait = pollfd(fd: executor.wakeFD, events: Int16(POLLIN), revents: 0)
        return poll(&wait, 1, milliseconds) == 1
    }

    @Test func aJobFromAnotherThreadWakesTheReaderAndRunsOnIt() throws {
        let executor = try #require(WorkerExecutor())
        executor.adopt(reader: pthread_self())
        let ranOn = Record<pthread_t>()
        ReaderThread.start {
            Task(executorPreference: executor) { ranOn.append(pthread_self()) }
        }
        #expect(woken(executor, within: 10_000))
        executor.clearWakeUp()
        #expect(!woken(executor, within: 0))
        // The job was queued before the wake-up was written: one round runs it, here.
        #expect(executor.runJobs() == false)
        #expect(ranOn.all.map { pthread_equal($0, pthread_self()) != 0 } == [true])
    }

    @Test func theReadersOwnJobsNeedNoWakeUpAndRunInOrder() throws {
        let executor = try #require(WorkerExecutor())
        executor.adopt(reader: pthread_self())
        let order = Record<Int>()
        for step in 0..<3 {
            Task(executorPreference: executor) { order.append(step) }
        }
        #expect(!woken(executor, within: 0))
        #expect(executor.runJobs() == false)
        #expect(order.all == [0, 1, 2])
    }

    @Test func aTaskThatKeepsYieldingLeavesTheReaderToRead() throws {
        let executor = try #require(WorkerExecutor())
        executor.adopt(reader: pthread_self())
        let stop = Record<Bool>()
        Task(executorPreference: executor) {
            while stop.all.isEmpty { await Task.yield() }
        }
        // Bounded rounds: it returns with the task's next job still waiting.
        #expect(executor.runJobs(rounds: 8))
        stop.append(true)
        while executor.runJobs() {}
        #expect(!woken(executor, within: 0))
    }
}
