import SwitchyardCore
import Testing

/// Background work runs as child tasks of its runner: queued work runs once the runner runs, the queue is
/// bounded, and cancelling the runner cancels the work under way and refuses more.
struct BackgroundWorkTests {
    @Test func queuedWorkRunsOnceTheRunnerRuns() async throws {
        let work = BackgroundWork()
        let (done, finished) = AsyncStream.makeStream(of: Int.self)
        for index in 0..<3 { #expect(work.submit { finished.yield(index) }) }
        let runner = Task { await work.run() }
        var seen: Set<Int> = []
        for await index in done {
            seen.insert(index)
            if seen.count == 3 { break }
        }
        #expect(seen == [0, 1, 2])
        runner.cancel()
        await runner.value
    }

    @Test func theQueueIsBounded() {
        let work = BackgroundWork(limit: 2)
        #expect(work.submit {})
        #expect(work.submit {})
        #expect(!work.submit {}, "a third job waits for no runner beyond the limit")
    }

    @Test func cancellingTheRunnerCancelsTheWorkUnderWayAndRefusesMore() async throws {
        let work = BackgroundWork()
        let (events, event) = AsyncStream.makeStream(of: String.self)
        #expect(
            work.submit {
                event.yield("started")
                // Holds until cancelled: the runner's cancellation reaches it as a child's.
                let (never, open) = AsyncStream.makeStream(of: Void.self)
                for await _ in never {}
                open.finish()
                event.yield(Task.isCancelled ? "cancelled" : "ended")
            })
        let runner = Task { await work.run() }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started")
        runner.cancel()
        await runner.value
        #expect(await iterator.next() == "cancelled")
        #expect(!work.submit {}, "no runner: the job is refused")
    }
}
