import Foundation
import Logging
import SwitchyardCluster
import SwitchyardStore
import Synchronization

/// Creating, registering for clean-up, and sweeping the test process's private cluster.
enum TestClusterSetup {
    static let directoryPrefix = "switchyard-test-pg-"

    static var logger: Logger {
        var logger = Logger(label: "switchyard.test.postgres")
        logger.logLevel = .warning
        return logger
    }

    /// Initializes and starts a cluster in a new directory under /tmp (blocking).
    static func start() throws -> PostgresCluster {
        guard let binDirectory = PostgresCluster.findBinDirectory() else {
            throw PostgresClusterError(
                code: .binariesMissing, message: "no PostgreSQL server binaries found (install postgresql)")
        }
        sweepAbandonedClusters(binDirectory: binDirectory)
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let root = "/tmp/\(directoryPrefix)\(getpid())-\(suffix)"
        let password = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        TestClusterRegistry.shared.register(directory: root)
        var lastError: (any Error)?
        for _ in 0..<3 {
            var cluster = PostgresCluster(
                dataDirectory: root + "/data", port: PostgresCluster.freePort(), password: password,
                binDirectory: binDirectory, logger: logger)
            cluster.durable = false
            // Many suites run in parallel in one process, each with its own pools.
            cluster.serverSettings = ["max_connections": "500"]
            do {
                try cluster.initializeIfNeeded()
                try cluster.start()
                TestClusterRegistry.shared.register(cluster: cluster)
                return cluster
            } catch let error as PostgresClusterError where error.code == .startFailed {
                lastError = error  // most likely the port was taken in the meantime: try another
            }
        }
        throw lastError ?? PostgresClusterError(code: .startFailed, message: "the test cluster did not start")
    }

    /// Stops and deletes clusters whose test process no longer exists.
    static func sweepAbandonedClusters(binDirectory: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for entry in entries where entry.hasPrefix(directoryPrefix) {
            let owner = entry.dropFirst(directoryPrefix.count).split(separator: "-").first.flatMap { Int32($0) }
            guard let owner, owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
            let directory = "/tmp/" + entry
            // `data`, and the standby of a replicated pair beside it.
            let children = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for child in children where FileManager.default.fileExists(atPath: "\(directory)/\(child)/PG_VERSION") {
                let cluster = PostgresCluster(
                    dataDirectory: directory + "/" + child, port: 0, password: "", binDirectory: binDirectory,
                    logger: logger)
                try? cluster.stop()
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

/// What to stop and delete when the test process exits.
final class TestClusterRegistry: Sendable {
    static let shared = TestClusterRegistry()

    private struct State {
        var directory: String?
        var cluster: PostgresCluster?
        var hookInstalled = false
    }

    private let state = Mutex(State())

    func register(directory: String) {
        state.withLock { state in
            state.directory = directory
            if !state.hookInstalled {
                state.hookInstalled = true
                atexit { TestClusterRegistry.shared.cleanUp() }
            }
        }
    }

    func register(cluster: PostgresCluster) {
        state.withLock { $0.cluster = cluster }
    }

    func cleanUp() {
        let (cluster, directory) = state.withLock { state -> (PostgresCluster?, String?) in
            let taken = (state.cluster, state.directory)
            state.cluster = nil
            state.directory = nil
            return taken
        }
        try? cluster?.stop()
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }
}
