import Foundation
import Logging
import SwitchyardStore

extension PostgresCluster {
    /// Runs `initdb` unless the data directory already holds a cluster (`PG_VERSION` exists).
    ///
    /// Creates the data directory (owned by the `postgres` user when we are root). The superuser is
    /// `postgres` with the given password, SCRAM-SHA-256 authentication, UTF-8 and no locale.
    ///
    /// - Throws: ``PostgresClusterError`` with code `unusableDirectory` when running as root and the
    ///   `postgres` user cannot reach the directory, or `initializationFailed` with `initdb`'s output.
    public func initializeIfNeeded() throws {
        if FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") { return }
        let initdb = try tool("initdb")
        try prepareDataDirectory()
        let passwordFile = try writePasswordFile()
        defer { unlink(passwordFile) }
        var arguments = [
            "-D", dataDirectory, "-U", "postgres", "--auth=scram-sha-256", "--pwfile=\(passwordFile)",
            "-E", "UTF8", "--no-locale",
        ]
        if !durable { arguments.append("--no-sync") }
        let output = try PGProcess.run(
            initdb, arguments, asServerUser: true, currentDirectory: Self.parent(of: dataDirectory))
        guard output.status == 0 else {
            throw PostgresClusterError(
                code: .initializationFailed, message: "initdb failed (exit \(output.status)):\n\(output.tail())")
        }
        logger.info("PostgreSQL cluster initialized", metadata: ["db.data_directory": "\(dataDirectory)"])
    }

    /// Starts the server on 127.0.0.1:``port`` (Unix sockets off) and waits until it accepts connections.
    ///
    /// Does nothing when this cluster's server already runs on the same port. A `postmaster.pid` left by
    /// a server that no longer runs is removed first. The server log is ``logFile``.
    ///
    /// - Throws: ``PostgresClusterError`` with code `startFailed` (including the end of the server log),
    ///   or `alreadyRunning` when a server runs on this data directory with another port.
    public func start() throws {
        guard FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") else {
            throw PostgresClusterError(
                code: .startFailed, message: "no cluster in \(dataDirectory); call initializeIfNeeded() first")
        }
        switch runningState() {
        case .running(let runningPort) where runningPort == port:
            logger.debug("PostgreSQL cluster already running", metadata: ["db.port": "\(port)"])
            return
        case .running(let runningPort):
            throw PostgresClusterError(
                code: .alreadyRunning,
                message: "a server already runs on \(dataDirectory) with port \(runningPort.map(String.init) ?? "?")")
        case .stopped:
            break
        }
        let pgCtl = try tool("pg_ctl")
        var options = "-p \(port) -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
        if !durable { options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
        for (name, value) in serverSettings.sorted(by: { $0.key < $1.key }) {
            options += " -c " + PGProcess.shellQuote("\(name)=\(value)")
        }
        let output = try PGProcess.run(
            pgCtl,
            ["start", "-w", "-t", "\(timeoutSeconds)", "-D", dataDirectory, "-l", logFile, "-o", options],
            asServerUser: true, currentDirectory: dataDirectory)
        guard output.status == 0 else {
            let log = PGProcess.readFile(logFile).map { PGProcess.Output(status: 0, text: $0).tail() } ?? "(no log)"
            throw PostgresClusterError(
                code: .startFailed,
                message: "PostgreSQL did not start on 127.0.0.1:\(port) (pg_ctl exit \(output.status)):\n"
                    + "\(output.tail(5))\nserver log (\(logFile)):\n\(log)")
        }
        logger.info("PostgreSQL cluster started", metadata: ["db.port": "\(port)"])
    }

    /// Stops the server (`pg_ctl stop -m fast -w`); does nothing when it is not running.
    public func stop() throws {
        guard case .running = runningState() else { return }
        let output = try PGProcess.run(
            try tool("pg_ctl"), ["stop", "-D", dataDirectory, "-m", "fast", "-w", "-t", "\(timeoutSeconds)"],
            asServerUser: true, currentDirectory: dataDirectory)
        guard output.status == 0 else {
            throw PostgresClusterError(
                code: .stopFailed, message: "pg_ctl stop failed (exit \(output.status)):\n\(output.tail())")
        }
        logger.info("PostgreSQL cluster stopped", metadata: ["db.port": "\(port)"])
    }

    // MARK: Private

    private enum RunningState {
        case stopped
        case running(port: Int?)
    }

    /// Reads `postmaster.pid`; removes it when its process is gone (or is not a PostgreSQL server).
    private func runningState() -> RunningState {
        let pidPath = dataDirectory + "/postmaster.pid"
        guard let text = PGProcess.readFile(pidPath) else { return .stopped }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if let pid = lines.first.flatMap({ Int32($0) }), pid > 0, Self.isServerProcess(pid) {
            return .running(port: lines.count > 3 ? Int(lines[3]) : nil)
        }
        logger.info("removed stale postmaster.pid", metadata: ["db.data_directory": "\(dataDirectory)"])
        try? FileManager.default.removeItem(atPath: pidPath)
        return .stopped
    }

    private static func isServerProcess(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let name = PGProcess.readFile("/proc/\(pid)/comm") else { return true }
        let command = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return command == "postgres" || command == "postmaster"
    }

    func tool(_ name: String) throws -> String {
        let path = binDirectory + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw PostgresClusterError(
                code: .binariesMissing,
                message: "\(path) not found; install the PostgreSQL server package (e.g. postgresql-15)")
        }
        return path
    }

    static func parent(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "/" : parent
    }
}
