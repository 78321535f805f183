import Foundation
import SwitchyardStore

extension PostgresCluster {
    /// Copies this running cluster into a new data directory as a streaming standby of it
    /// (`pg_basebackup -R -X stream`), and describes the standby; start it with ``start()``.
    ///
    /// The standby connects to this cluster as the superuser with `application_name` set to
    /// `applicationName`, the name `synchronous_standby_names` on this cluster refers to.
    ///
    /// - Throws: ``PostgresClusterError`` with code `unusableDirectory` when the directory cannot be made,
    ///   or `commandFailed` with `pg_basebackup`'s output.
    public func makeStandby(dataDirectory standbyDirectory: String, port standbyPort: Int, applicationName: String)
        throws -> PostgresCluster
    {
        var standby = PostgresCluster(
            dataDirectory: standbyDirectory, port: standbyPort, password: password, binDirectory: binDirectory,
            logger: logger)
        standby.durable = durable
        standby.timeoutSeconds = timeoutSeconds
        try standby.prepareDataDirectory()
        let source =
            connectionString(database: "postgres") + " application_name="
            + Self.quoteConnectionValue(applicationName)
        var arguments = ["-d", source, "-D", standby.dataDirectory, "-R", "-X", "stream", "-c", "fast", "-w"]
        if !durable { arguments.append("--no-sync") }
        let output = try PGProcess.run(
            try tool("pg_basebackup"), arguments, asServerUser: true, currentDirectory: standby.dataDirectory)
        guard output.status == 0 else {
            throw PostgresClusterError(
                code: .commandFailed, message: "pg_basebackup failed (exit \(output.status)):\n\(output.tail())")
        }
        logger.info(
            "PostgreSQL standby copied", metadata: ["db.port": "\(port)", "db.standby_port": "\(standbyPort)"])
        return standby
    }

    /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`): no checkpoint, clients cut.
    public func stopImmediately() throws {
        let output = try PGProcess.run(
            try tool("pg_ctl"), ["stop", "-D", dataDirectory, "-m", "immediate", "-w", "-t", "\(timeoutSeconds)"],
            asServerUser: true, currentDirectory: dataDirectory)
        guard output.status == 0 else {
            throw PostgresClusterError(
                code: .stopFailed,
                message: "pg_ctl stop -m immediate failed (exit \(output.status)):\n\(output.tail())")
        }
        logger.info("PostgreSQL cluster stopped immediately", metadata: ["db.port": "\(port)"])
    }

    /// Promotes this standby to a primary (`pg_ctl promote -w`) and waits until it accepts writes.
    public func promote() throws {
        let output = try PGProcess.run(
            try tool("pg_ctl"), ["promote", "-D", dataDirectory, "-w", "-t", "\(timeoutSeconds)"],
            asServerUser: true, currentDirectory: dataDirectory)
        guard output.status == 0 else {
            throw PostgresClusterError(
                code: .commandFailed, message: "pg_ctl promote failed (exit \(output.status)):\n\(output.tail())")
        }
        logger.info("PostgreSQL standby promoted", metadata: ["db.port": "\(port)"])
    }
}
