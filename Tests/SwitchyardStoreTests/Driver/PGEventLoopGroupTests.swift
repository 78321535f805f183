import Foundation
import Testing

@testable import SwitchyardStore

/// The process's PostgreSQL I/O drivers as the system sees them.
struct PGEventLoopGroupTests {
    /// Each loop's thread carries its name where `ps`, `top` and profiles read it (Linux drops a name
    /// longer than 15 bytes, which left the loops under their creator's name).
    @Test func everyLoopThreadIsNamedInTheKernel() async throws {
        let loops = PGEventLoopGroup.shared.loops.count
        // A job run on each loop: its thread has started, and names itself before it serves.
        for loop in PGEventLoopGroup.shared.loops {
            await withTaskExecutorPreference(loop) {}
        }
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        let names = tasks.compactMap { task in
            try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(Set(names.filter { $0.hasPrefix("sy-pg-loop-") }) == Set((0..<loops).map { "sy-pg-loop-\($0)" }))
    }

    /// A caller running on one of the loops (a request, see `PGPool.requestExecutor()`) is lent a
    /// connection that loop drives when one is idle, so its statements run on the thread it is already on.
    @Test func aCallerOnALoopIsLentAConnectionOfThatLoop() async throws {
        try await DriverFixture.withPool(size: 4) { pool in
            for loop in PGEventLoopGroup.shared.loops {
                for _ in 0..<3 {
                    let (lentByLoop, ranOnIt) = try await withTaskExecutorPreference(loop) {
                        try await pool.withConnection { connection in
                            _ = try await connection.query("SELECT 1")
                            return (connection.loop === loop, loop.isCurrent)
                        }
                    }
                    #expect(lentByLoop)
                    #expect(ranOnIt)
                }
            }
        }
    }
}
