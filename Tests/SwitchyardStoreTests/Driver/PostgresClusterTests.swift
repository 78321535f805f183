import Foundation
import SwitchyardCluster
import SwitchyardStore
import SwitchyardTestSupport
import Testing

@Suite("Private cluster")
struct PostgresClusterTests {
    private static var postgresUserCannotReachRoot: Bool {
        geteuid() == 0
            && (try? FileManager.default.attributesOfItem(atPath: "/root")[.posixPermissions] as? Int)
                .map { $0 & 0o001 == 0 } ?? false
    }

    @Test func findsTheServerBinaries() throws {
        let bin = try #require(PostgresCluster.findBinDirectory())
        #expect(FileManager.default.isExecutableFile(atPath: bin + "/initdb"))
        #expect(FileManager.default.isExecutableFile(atPath: bin + "/pg_ctl"))
    }

    @Test func freePortCanBeBound() {
        let port = PostgresCluster.freePort()
        #expect((1024...65535).contains(port))
    }

    @Test(.enabled(if: postgresUserCannotReachRoot))
    func unreachableDataDirectoryIsRefusedUpFront() throws {
        let root = "/root/switchyard-cluster-\(UUID().uuidString)"
        let cluster = PostgresCluster(
            dataDirectory: root + "/data", port: PostgresCluster.freePort(), password: "pw",
            binDirectory: try #require(PostgresCluster.findBinDirectory()), logger: DriverFixture.logger)
        let error = #expect(throws: PostgresClusterError.self) { try cluster.initializeIfNeeded() }
        #expect(error?.code == .unusableDirectory)
        #expect(error?.message.contains("postgres") == true)
        #expect(error?.message.contains("/root") == true)
        #expect(!FileManager.default.fileExists(atPath: root))
    }

    @Test func initializesStartsRecoversFromAStalePIDFileAndStops() async throws {
        let (directory, configured) = try DriverFixture.privateCluster(password: "p'w d\\x")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        defer { try? configured.stop() }

        try await DriverFixture.blocking {
            try configured.initializeIfNeeded()
            try configured.initializeIfNeeded()  // already there: no-op
            try configured.start()
            try configured.start()  // already running on this port: no-op
        }
        try await configured.createDatabase("shop")
        try await configured.createDatabase("shop")  // idempotent
        #expect(FileManager.default.fileExists(atPath: configured.logFile))
        let pool = try PGPool(
            PostgresConfiguration(connectionString: configured.connectionString(database: "shop"), poolSize: 1),
            logger: DriverFixture.logger)
        #expect(
            try await pool.withConnection {
                try await $0.query("SELECT current_database() AS db").first.driverUnwrap().string("db")
            } == "shop")
        await pool.shutdown()

        // Wrong password is refused (SCRAM authentication is on).
        let wrong = try PGPool(
            PostgresConfiguration(
                connectionString: "host=127.0.0.1 port=\(configured.port) user=postgres password=nope dbname=postgres",
                poolSize: 1),
            logger: DriverFixture.logger)
        let refused = await #expect(throws: PGError.self) { try await wrong.ping() }
        #expect(refused?.code == .connectionFailed)
        await wrong.shutdown()

        // A crash leaves postmaster.pid behind; its process no longer exists.
        try await DriverFixture.blocking { try configured.stop() }
        let pidFile = configured.dataDirectory + "/postmaster.pid"
        try "999999\n\(configured.dataDirectory)\n0\n\(configured.port)\n\n127.0.0.1\n0 0\nready\n"
            .write(toFile: pidFile, atomically: false, encoding: .utf8)
        try await DriverFixture.blocking { try configured.start() }
        let restarted = try PGPool(
            PostgresConfiguration(connectionString: configured.connectionString, poolSize: 1),
            logger: DriverFixture.logger)
        try await restarted.ping()
        await restarted.shutdown()

        try await DriverFixture.blocking {
            try configured.stop()
            try configured.stop()  // not running: no-op
        }
        #expect(!FileManager.default.fileExists(atPath: pidFile))
    }

    @Test func startFailureReportsTheServerLog() async throws {
        let (directory, plain) = try DriverFixture.privateCluster()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var cluster = plain
        cluster.serverSettings = ["shared_buffers": "not-a-size"]
        let configured = cluster
        let error = await #expect(throws: PostgresClusterError.self) {
            try await DriverFixture.blocking {
                try configured.initializeIfNeeded()
                try configured.start()
            }
        }
        #expect(error?.code == .startFailed)
        #expect(error?.message.contains("shared_buffers") == true)
    }

    @Test func concurrentFreshDatabasesShareOneCluster() async throws {
        let strings = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { try await TestPostgres.freshDatabase() } }
            var collected: [String] = []
            for try await string in group { collected.append(string) }
            return collected
        }
        func field(_ name: String, _ string: String) -> String? {
            string.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        #expect(Set(strings.compactMap { field("port", $0) }).count == 1)
        #expect(Set(strings.compactMap { field("dbname", $0) }).count == 6)
        for string in strings {
            let pool = try PGPool(
                PostgresConfiguration(connectionString: string, poolSize: 1), logger: DriverFixture.logger)
            try await pool.ping()
            await pool.shutdown()
        }
    }
}
