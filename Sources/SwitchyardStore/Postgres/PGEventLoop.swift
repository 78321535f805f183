import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The I/O driver of a set of PostgreSQL connections: one thread that runs tasks and waits on sockets.
///
/// It is a `TaskExecutor`: a pooled connection's work runs under `withTaskExecutorPreference(loop)`, so the
/// task that sends a statement also waits for the socket and reads the answer on this thread, and a
/// transaction costs one hop onto the loop and one back, however many statements it runs. Between jobs the
/// thread sleeps in `poll(2)` on every socket a connection is waiting for and on a pipe that wakes it when
/// a job or a wait arrives from another thread. No connection owns a thread; the loop owns none of
/// the sockets either (libpq does), it only waits on them.
final class PGEventLoop: TaskExecutor, Sendable {
    /// What a wait came back with.
    enum Wake: Equatable, Sendable {
        /// The socket is ready (an error or a hang-up counts as ready for both, so libpq finds it).
        case ready(readable: Bool, writable: Bool)
        /// The deadline passed first.
        case timedOut
    }

    /// What a connection waits for on its socket.
    struct Interest: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        static let readable = Interest(rawValue: 1)
        static let writable = Interest(rawValue: 2)
    }

    private struct Waiter {
        var socket: Int32
        var interest: Interest
        var deadline: ContinuousClock.Instant?
        var task: Resumption
    }

    /// The task a waiter resumes: one that waits until its socket or deadline, or one that a cancellation
    /// also resumes (with nil).
    private enum Resumption {
        case whole(CheckedContinuation<Wake, Never>)
        case cancellable(CheckedContinuation<Wake?, Never>)

        func resume(_ wake: Wake?) {
            switch self {
            case .whole(let continuation): continuation.resume(returning: wake ?? .timedOut)
            case .cancellable(let continuation): continuation.resume(returning: wake)
            }
        }
    }

    private struct State {
        var jobs: [UnownedJob] = []
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
        /// Set while the thread is in (or about to enter) `poll`: whoever adds work then writes the eventfd.
        var sleeping = false

        /// Whether the loop was asleep (then the caller must wake it); clears the mark either way.
        mutating func takeSleeping() -> Bool {
            defer { sleeping = false }
            return sleeping
        }
    }

    /// The loop's name, also its thread's.
    let name: String
    private let state = Mutex(State())
    /// The loop's thread (`pthread_self()` as a number), set once it runs: 0 before.
    private let threadID = Atomic<UInt>(0)
    /// The wake-up pipe's ends: the loop polls the first, others write a byte to the second.
    private let wakeDescriptor: Int32
    private let wakeWriter: Int32

    /// Starts the loop's thread.
    init(name: String) {
        self.name = name
        var ends: [Int32] = [-1, -1]
        let made = pipe(&ends)
        precondition(made == 0, "pipe failed (errno \(errno))")
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
        let thread = Thread { [self] in
            threadID.store(UInt(pthread_self()), ordering: .releasing)
            Self.nameCurrentThread(name)
            self.run()
        }
        thread.start()
    }

    /// Names the calling thread where the kernel keeps it (`ps`, `top` and profiles read it): Foundation's
    /// `Thread.name` does not reach it here, and the kernel keeps at most 15 bytes.
    static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// Whether the caller runs on this loop's thread.
    var isCurrent: Bool { threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Queues a job of a task that prefers this executor.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = state.withLock { state in
            state.jobs.append(job)
            return state.takeSleeping()
        }
        if wake { signal() }
    }

    /// Suspends the caller until `socket` is ready for `interest` or `deadline` passes.
    ///
    /// The wait is not cancelled with the task: every caller bounds it by a deadline or by the server's
    /// own timeouts (`statement_timeout`, keepalives), and libpq's state must not be left half read.
    func wait(for socket: Int32, _ interest: Interest, until deadline: ContinuousClock.Instant? = nil) async -> Wake {
        await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
            let wake = state.withLock { state in
                state.nextWaiter &+= 1
                state.waiters[state.nextWaiter] = Waiter(
                    socket: socket, interest: interest, deadline: deadline, task: .whole(continuation))
                return state.takeSleeping()
            }
            if wake { signal() }
        }
    }

    /// Like ``wait(for:_:until:)``, but ends early, with nil, when the calling task is cancelled: for a caller
    /// that abandons the connection when it is cancelled (the configuration listener), never for one that
    /// must leave libpq's state whole.
    func waitUnlessCancelled(
        for socket: Int32, _ interest: Interest, until deadline: ContinuousClock.Instant? = nil
    ) async -> Wake? {
        let id = state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wake?, Never>) in
                let waiter = Waiter(
                    socket: socket, interest: interest, deadline: deadline, task: .cancellable(continuation))
                let (cancelled, wake) = state.withLock { state in
                    // A cancellation that came first finds no waiter to remove: it is seen here.
                    if Task.isCancelled { return (true, false) }
                    state.waiters[id] = waiter
                    return (false, state.takeSleeping())
                }
                if cancelled { continuation.resume(returning: nil) }
                if wake { signal() }
            }
        } onCancel: {
            let removed = state.withLock { $0.waiters.removeValue(forKey: id) }
            guard let removed else { return }
            removed.task.resume(nil)
            // The loop polls the socket no longer.
            signal()
        }
    }

    private func signal() {
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up: nothing is lost when this write fails.
        _ = Glibc.write(wakeWriter, &byte, 1)
    }

    private func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wakeDescriptor, &bytes, bytes.count) == bytes.count {}
    }

    private func run() {
        let executor = asUnownedTaskExecutor()
        var descriptors: [pollfd] = []
        var ids: [UInt64] = []
        var running: [UnownedJob] = []
        while true {
            // Jobs queued by the jobs just run (a task resuming on this loop) run before the sockets are
            // polled again, up to a bound, so a chain of them costs one `poll` rather than one each.
            for _ in 0..<Self.roundsBetweenPolls {
                state.withLock { swap(&$0.jobs, &running) }
                if running.isEmpty { break }
                for job in running { job.runSynchronously(on: executor) }
                running.removeAll(keepingCapacity: true)
            }
            descriptors.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0))
            let timeout: Int32 = state.withLock { state in
                var earliest: ContinuousClock.Instant?
                for (id, waiter) in state.waiters {
                    var events: Int16 = 0
                    if waiter.interest.contains(.readable) { events |= Int16(POLLIN) }
                    if waiter.interest.contains(.writable) { events |= Int16(POLLOUT) }
                    descriptors.append(pollfd(fd: waiter.socket, events: events, revents: 0))
                    ids.append(id)
                    if let deadline = waiter.deadline { earliest = min(earliest ?? deadline, deadline) }
                }
                if !state.jobs.isEmpty { return 0 }
                state.sleeping = true
                return Self.pollTimeout(until: earliest)
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR { Thread.sleep(forTimeInterval: 0.001) }
            if descriptors[0].revents != 0 { drainWake() }
            resumeWaiters(descriptors: descriptors, ids: ids)
        }
    }

    /// Resumes the waiters whose socket is ready or whose deadline passed.
    private func resumeWaiters(descriptors: [pollfd], ids: [UInt64]) {
        let now = ContinuousClock.now
        let woken: [(Resumption, Wake)] = state.withLock { state in
            state.sleeping = false
            var woken: [(Resumption, Wake)] = []
            for (index, id) in ids.enumerated() {
                guard let waiter = state.waiters[id] else { continue }
                let revents = Int32(descriptors[index + 1].revents)
                if revents != 0 {
                    let failed = revents & (POLLERR | POLLHUP | POLLNVAL) != 0
                    let wake = Wake.ready(
                        readable: failed || revents & POLLIN != 0, writable: failed || revents & POLLOUT != 0)
                    state.waiters[id] = nil
                    woken.append((waiter.task, wake))
                } else if let deadline = waiter.deadline, deadline <= now {
                    state.waiters[id] = nil
                    woken.append((waiter.task, .timedOut))
                }
            }
            return woken
        }
        for (task, wake) in woken { task.resume(wake) }
    }

    /// How many rounds of queued jobs run between two polls of the sockets while jobs keep coming.
    static let roundsBetweenPolls = 16

    /// Milliseconds until `deadline` for `poll` (rounded up, so a wait never ends early), or -1 for none.
    static func pollTimeout(until deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant = .now) -> Int32 {
        guard let deadline else { return -1 }
        let remaining = now.duration(to: deadline)
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int32.max }
        let total = milliseconds.partialValue.addingReportingOverflow(
            (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        guard !total.overflow else { return Int32.max }
        return Int32(clamping: total.partialValue)
    }
}
