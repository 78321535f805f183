import Foundation
import Logging
import SwitchyardCluster
import SwitchyardStore

/// A primary and its synchronous streaming standby, private to one test, for failover runs.
///
/// The primary (`wal_level=replica`, `synchronous_commit=on`) names the standby in
/// `synchronous_standby_names`, so a commit is acknowledged only once the standby has it. Both are durable
/// clusters in one directory under `/tmp` (swept like the shared test cluster when the process dies), on
/// free loopback ports. ``stop()`` stops both and removes the directory; call it on every path.
public struct TestReplicatedPostgres: Sendable {
    /// The `application_name` the standby connects with, and the primary waits for.
    public static let standbyName = "switchyard_standby"

    /// The cluster that accepts writes at the start.
    public let primary: PostgresCluster
    /// The synchronous standby, which ``promote()`` makes the primary.
    public let standby: PostgresCluster
    /// The directory holding both data directories.
    public let directory: String

    /// Initializes and starts the primary, copies it into the standby with `pg_basebackup -R`, starts the
    /// standby and waits until the primary reports it as its synchronous standby (blocking).
    public static func start() async throws -> TestReplicatedPostgres {
        let pair = try await BlockingThread.run { try startBlocking() }
        do {
            try await pair.waitForSynchronousStandby()
        } catch {
            pair.stop()
            throw error
        }
        return pair
    }

    private static func startBlocking() throws -> TestReplicatedPostgres {
        guard let binDirectory = PostgresCluster.findBinDirectory() else {
            throw PostgresClusterError(
                code: .binariesMissing, message: "no PostgreSQL server binaries found (install postgresql)")
        }
        TestClusterSetup.sweepAbandonedClusters(binDirectory: binDirectory)
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let directory = "/tmp/\(TestClusterSetup.directoryPrefix)\(getpid())-ha-\(suffix)"
        let password = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        // Hot standbys need at least the primary's max_connections.
        let common = ["max_connections": "200"]
        var primary = PostgresCluster(
            dataDirectory: directory + "/data", port: PostgresCluster.freePort(), password: password,
            binDirectory: binDirectory, logger: TestClusterSetup.logger)
        primary.serverSettings = common.merging([
            "wal_level": "replica", "max_wal_senders": "4", "synchronous_commit": "on",
            "synchronous_standby_names": standbyName,
        ]) { $1 }
        var standby: PostgresCluster?
        do {
            try primary.initializeIfNeeded()
            try primary.start()
            var copy = try primary.makeStandby(
                dataDirectory: directory + "/standby", port: PostgresCluster.freePort(), applicationName: standbyName)
            copy.serverSettings = common.merging(["cluster_name": standbyName]) { $1 }
            standby = copy
            try copy.start()
            return TestReplicatedPostgres(primary: primary, standby: copy, directory: directory)
        } catch {
            try? standby?.stopImmediately()
            try? primary.stopImmediately()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Waits, at most 60 s, until the primary lists the standby in `pg_stat_replication` as `sync`.
    private func waitForSynchronousStandby() async throws {
        let deadline = Date().addingTimeInterval(60)
        var state = "none"
        try await PGPool.scoped(connectionString: primary.connectionString, logger: TestClusterSetup.logger) { pool in
            while Date() < deadline {
                state = try await pool.withConnection { connection in
                    let rows = try await connection.query(
                        "SELECT sync_state FROM pg_stat_replication WHERE application_name = $1",
                        [.text(Self.standbyName)])
                    return rows.first?.optionalString("sync_state") ?? "none"
                }
                if state == "sync" { return }
                try await Task.sleep(for: .milliseconds(200))
            }
            throw PostgresClusterError(
                code: .startFailed, message: "the standby did not become synchronous (state \(state))")
        }
    }

    /// Creates a database on the primary set up as ``TestPostgres/freshSwitchyardDatabase()`` sets one up,
    /// and returns its name and the application role's and the owner's connection strings naming both nodes,
    /// primary first, keeping only a server that accepts writes: `host=127.0.0.1,127.0.0.1 port=P1,P2 …
    /// target_session_attrs=read-write`.
    public func switchyardDatabase() async throws -> (name: String, appURL: String, ownerURL: String) {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let primary = self.primary
        try await primary.createDatabase(name)
        let database = try await TestPostgres.switchyardDatabase(on: primary, named: name)
        let single = "host=127.0.0.1 port=\(primary.port) "
        let both = "host=127.0.0.1,127.0.0.1 port=\(primary.port),\(standby.port) "
        func bothNodes(_ url: String) throws -> String {
            guard url.hasPrefix(single) else {
                throw PostgresClusterError(code: .commandFailed, message: "unexpected connection string shape")
            }
            return both + url.dropFirst(single.count) + " target_session_attrs=read-write"
        }
        return (name, try bothNodes(database.appURL), try bothNodes(database.ownerURL))
    }

    /// Stops the primary as a crash would (`pg_ctl stop -m immediate`).
    public func crashPrimary() async throws {
        let primary = self.primary
        try await BlockingThread.run { try primary.stopImmediately() }
    }

    /// Promotes the standby (`pg_ctl promote -w`); returns once it accepts writes.
    public func promoteStandby() async throws {
        let standby = self.standby
        try await BlockingThread.run { try standby.promote() }
    }

    /// Stops both servers at once and removes their directory; errors are ignored (a server may be down).
    public func stop() {
        try? standby.stopImmediately()
        try? primary.stopImmediately()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
