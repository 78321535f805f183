import NIOCore

/// A NIO event loop as a task executor: a task that prefers it runs its jobs on the loop's thread, so work
/// that starts from a channel's event (a plugin worker's frame) and ends with a write to that channel or an
/// exchange on the same loop never moves to another thread.
final class EventLoopTaskExecutor: TaskExecutor, Sendable {
    let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}
