import CPluginSandbox
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's executor of every task without one of its own, for a plugin that returns promptly: its jobs
/// run on the thread that reads the socket, between the frames it reads. A call, the requests it sends and
/// their results then never wake another thread of the worker; a job another thread enqueues (a task the
/// plugin's `create` starts on the main thread, a timer's) wakes the reader through an eventfd.
///
/// The plugin's tasks reach it through the Swift runtime's global-executor hook, which is the process's:
/// the plugin is built with its own copy of ProviderKit, so nothing it links would otherwise know this
/// executor. Jobs run one at a time, which a prompt plugin (whose code never waits on another task) allows.
final class WorkerExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `reader` is written once, before the hook is installed (and so before any job exists);
    // `running` is touched only by the reader.
    private let jobs = Mutex<[UnownedJob]>([])
    private var running: [UnownedJob] = []
    private var reader = pthread_t()
    /// Readable after a thread other than the reader enqueued a job into an empty queue.
    let wakeFD: Int32

    /// Nil when the kernel gives no eventfd.
    init?() {
        wakeFD = sy_wake_fd()
        guard wakeFD >= 0 else { return nil }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job))
    }

    func enqueue(_ job: UnownedJob) {
        let first = jobs.withLock { jobs -> Bool in
            jobs.append(job)
            return jobs.count == 1
        }
        // The reader runs what it enqueues before it waits again; only another thread has to wake it.
        if first && pthread_equal(pthread_self(), reader) == 0 {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
        }
    }

    /// Runs the jobs waiting and those they enqueue, for up to `rounds` rounds (so a task that keeps
    /// yielding cannot stop the reader reading); true when jobs still wait. Only the reader calls it.
    func runJobs(rounds: Int = 64) -> Bool {
        for _ in 0..<rounds {
            jobs.withLock { swap(&$0, &running) }
            if running.isEmpty { return false }
            for job in running {
                // As a task executor: the job's nonisolated code then runs on, without a hop per call.
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
            running.removeAll(keepingCapacity: true)
        }
        return jobs.withLock { !$0.isEmpty }
    }

    /// Names the thread that runs the jobs (and needs no wake-up for its own); before any job exists.
    func adopt(reader: pthread_t) {
        self.reader = reader
    }

    /// Consumes a wake-up (the reader calls it when `wakeFD` polled readable).
    func clearWakeUp() {
        var count: UInt64 = 0
        _ = read(wakeFD, &count, MemoryLayout<UInt64>.size)
    }

    /// Makes this the executor of every task of the process without one of its own, its jobs run by the
    /// thread `reader` (which calls ``runJobs(rounds:)``). False, and nothing changed, when the runtime has
    /// no global-executor hook or another executor has taken it.
    func installAsGlobal(reader: pthread_t) -> Bool {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return false }
        let hook = symbol.assumingMemoryBound(to: UnsafeRawPointer?.self)
        guard hook.pointee == nil else { return false }
        adopt(reader: reader)
        Self.global = self
        // The hook's C type is `void (*)(Job *, void (*original)(Job *))`; a thin Swift function of the same
        // shape is one code pointer.
        typealias EnqueueGlobal = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void
        let enqueue: EnqueueGlobal = { job, _ in WorkerExecutor.global?.enqueue(job) }
        hook.pointee = unsafeBitCast(enqueue, to: UnsafeRawPointer.self)
        return true
    }

    /// The executor the hook hands jobs to (a thin function captures nothing).
    nonisolated(unsafe) private static var global: WorkerExecutor?
}
