import Foundation
import Synchronization

/// The process's PostgreSQL I/O drivers: one ``PGEventLoop`` per core, shared by every pool and listener.
///
/// A pool spreads its connections evenly over the loops (its connection i on loop i mod n); a connection made
/// alone (the configuration listener's) takes the next loop in turn. A connection keeps its loop for life.
/// The loops start with the first pool and live as long as the process.
final class PGEventLoopGroup: Sendable {
    /// The loops every pool of the process uses.
    static let shared = PGEventLoopGroup(count: ProcessInfo.processInfo.activeProcessorCount)

    let loops: [PGEventLoop]
    private let next = Mutex(0)

    /// Starts `count` loops (at least one).
    init(count: Int) {
        // Linux keeps a thread name of at most 15 bytes and drops a longer one, leaving the thread under its
        // creator's name in `ps`, `top` and profiles.
        loops = (0..<max(1, count)).map { PGEventLoop(name: "sy-pg-loop-\($0)") }
    }

    /// The loop the next connection is bound to.
    func nextLoop() -> PGEventLoop {
        let index = next.withLock { next in
            defer { next = (next + 1) % loops.count }
            return next
        }
        return loops[index]
    }
}
