/// Work a service starts for later, beyond the request that asked for it (the sync of an account's open
/// payments after an unverifiable notification, say), run as child tasks of one long-lived ``run()``
/// instead of as detached tasks: it ends with the server, and a cancelled server cancels it.
///
/// The queue is bounded: past `limit` jobs waiting, a new one is refused, so a flood of requests cannot
/// pile up work without bound.
public final class BackgroundWork: Sendable {
    /// One unit of work.
    public typealias Job = @Sendable () async -> Void

    private let jobs: AsyncStream<Job>
    private let queue: AsyncStream<Job>.Continuation

    /// A queue holding at most `limit` jobs not yet started.
    public init(limit: Int = 64) {
        (jobs, queue) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .bufferingOldest(max(1, limit)))
    }

    /// Queues `job`; false when the queue is full or the runner has ended (the job will not run).
    @discardableResult
    public func submit(_ job: @escaping Job) -> Bool {
        if case .enqueued = queue.yield(job) { return true }
        return false
    }

    /// Runs the queued jobs, each as a child task, until the calling task is cancelled; then the jobs
    /// still running are cancelled and awaited, and later submissions are refused.
    public func run() async {
        await withDiscardingTaskGroup { group in
            for await job in jobs {
                group.addTask { await job() }
            }
        }
        queue.finish()
    }
}
