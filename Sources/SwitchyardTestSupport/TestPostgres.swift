import Foundation
import Logging
import SwitchyardCluster
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
        try await freshDatabaseName().url
    }

    /// Creates a database set up as production sets one up: the roles of ``DatabaseRoles`` provisioned
    /// by the same function, the schema migrated as the owner.
    public static func freshSwitchyardDatabase() async throws -> TestDatabase {
        let (cluster, name, _) = try await freshDatabaseName()
        return try await switchyardDatabase(on: cluster, named: name)
    }

    /// Sets up database `name`, which must exist on `cluster`, as ``freshSwitchyardDatabase()`` does:
    /// roles provisioned, schema migrated as the owner.
    public static func switchyardDatabase(on cluster: PostgresCluster, named name: String) async throws
        -> TestDatabase
    {
        let adminURL = cluster.connectionString(database: name)
        let roles = TestDatabase.roles
        // Roles belong to the whole cluster: provisioning two databases at once would update them
        // concurrently, which PostgreSQL refuses.
        try await TestDatabase.provisioning.run {
            try await roles.provision(adminConnectionString: adminURL, database: name, logger: TestClusterSetup.logger)
        }
        let database = TestDatabase(
            adminURL: adminURL,
            ownerURL: cluster.connectionString(database: name, user: roles.owner, password: roles.ownerPassword),
            appURL: cluster.connectionString(database: name, user: roles.app, password: roles.appPassword))
        try await PGPool.scoped(connectionString: database.ownerURL, logger: TestClusterSetup.logger) { pool in
            try await Migrator.migrate(pool, migrations: Schema.migrations, logger: TestClusterSetup.logger)
        }
        return database
    }

    private static func freshDatabaseName() async throws -> (cluster: PostgresCluster, name: String, url: String) {
        let cluster = try await SharedTestCluster.shared.cluster()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await cluster.createDatabase(name)
        return (cluster, name, cluster.connectionString(database: name))
    }
}

/// A migrated test database and how each role connects to it.
public struct TestDatabase: Sendable {
    /// The roles of every test database of this process (roles are shared by the cluster).
    static let roles = DatabaseRoles(
        ownerPassword: "o" + UUID().uuidString.replacingOccurrences(of: "-", with: ""),
        appPassword: "a" + UUID().uuidString.replacingOccurrences(of: "-", with: ""))
    static let provisioning = AsyncSerialGate()

    /// As the cluster's superuser.
    public let adminURL: String
    /// As the owner of the tables (which migrates).
    public let ownerURL: String
    /// As the application role, which the server uses.
    public let appURL: String
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
