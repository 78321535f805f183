import Foundation

/// A few dedicated threads running one in-process plugin's `invoke` and `cancel` calls, so a plugin
/// that blocks inside them holds its own threads, never the cooperative pool.
final class PluginThreads: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var stopping = false

    init(count: Int, name: String) {
        for index in 0..<max(1, count) {
            let thread = Thread { [self] in run() }
            thread.name = "plugin \(name) #\(index)"
            thread.start()
        }
    }

    /// Runs `work` on a new thread of its own and returns its result, leaving the caller's thread free.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Queues `job` for the next free thread.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads end once the queue is empty.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping {
                condition.wait()
            }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
