import Foundation
import Logging
import SwitchyardCluster
import SwitchyardStore
import SwitchyardTestSupport

/// Pools on fresh databases of the shared test cluster.
enum DriverFixture {
    static let logger: Logger = {
        var logger = Logger(label: "switchyard.test.driver")
        logger.logLevel = .warning
        return logger
    }()

    /// A pool on a new, empty database.
    static func pool(size: Int = 4) async throws -> PGPool {
        let connectionString = try await TestPostgres.freshDatabase()
        return try PGPool(PostgresConfiguration(connectionString: connectionString, poolSize: size), logger: logger)
    }

    /// Runs `body` with a pool on a new database, shutting the pool down afterwards.
    static func withPool<T>(size: Int = 4, _ body: (PGPool) async throws -> T) async throws -> T {
        try await PGPool.scoped(
            connectionString: try await TestPostgres.freshDatabase(), size: size, logger: logger, body)
    }

    /// A cluster of the test's own (not durable, on a free port) in a new directory under `/tmp`, neither
    /// initialized nor started; the caller removes `directory` when done.
    static func privateCluster(password: String = "pw") throws -> (directory: String, cluster: PostgresCluster) {
        let directory = "/tmp/switchyard-cluster-test-\(UUID().uuidString.prefix(8))"
        guard let binDirectory = PostgresCluster.findBinDirectory() else { throw DriverTestError() }
        var cluster = PostgresCluster(
            dataDirectory: directory + "/data", port: PostgresCluster.freePort(), password: password,
            binDirectory: binDirectory, logger: logger)
        cluster.durable = false
        return (directory, cluster)
    }

    /// Runs blocking cluster work off the concurrency pool.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// A name unique to one test, usable as an identifier.
    static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
    }
}

/// An error thrown by test bodies on purpose.
struct DriverTestError: Error, Equatable {}

extension Optional {
    /// The value, or a thrown error; for use inside connection closures, which run off the test's task.
    func driverUnwrap() throws -> Wrapped {
        guard let value = self else { throw DriverTestError() }
        return value
    }
}
