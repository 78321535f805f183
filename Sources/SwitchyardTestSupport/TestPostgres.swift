import Foundation
import Logging
import SwitchyardStore

/// Throwaway PostgreSQL databases for tests.
///
/// The first call starts one private cluster for the whole test process (in a fresh directory under
/// `/tmp`, on a free loopback port, without crash safety, for speed); every call then creates a new,
/// uniquely named database in it. The cluster is stopped and its directory removed when the process
/// exits. Clusters left behind by test processes that died are cleaned up by the next first call.
public enum TestPostgres {
    /// Creates an empty database and returns a libpq connection string for it (superuser `postgres`).
    public static func freshDatabase() async throws -> String {
        let cluster = try await SharedTestCluster.shared.cluster()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await BlockingThread.run { try cluster.createDatabase(name) }
        return cluster.connectionString(database: name)
    }
}

/// Starts the process's cluster once, however many callers race for it.
actor SharedTestCluster {
    static let shared = SharedTestCluster()

    private var starting: Task<PostgresCluster, any Error>?

    func cluster() async throws -> PostgresCluster {
        if let starting { return try await starting.value }
        let task = Task { try await BlockingThread.run { try TestClusterSetup.start() } }
        starting = task
        return try await task.value
    }
}

/// Runs blocking work (process spawning, libpq) on a thread of its own, off the concurrency pool.
enum BlockingThread {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.name = "switchyard.test.postgres"
            thread.start()
        }
    }
}
