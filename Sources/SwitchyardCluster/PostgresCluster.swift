import Foundation
import Logging
import SwitchyardStore

#if canImport(Glibc)
    import Glibc
#endif

/// A private PostgreSQL cluster run from the system's server binaries, listening on 127.0.0.1 only.
///
/// Used by the embedded default and by tests. The superuser is `postgres`, authenticated by
/// SCRAM-SHA-256 with the given password; Unix-domain sockets are disabled. When the process runs as
/// root, the server tools run as the `postgres` system user, which must be able to reach the data
/// directory. All methods block the calling thread while the tools run.
public struct PostgresCluster: Sendable {
    /// The cluster's data directory (`PGDATA`), absolute.
    public let dataDirectory: String
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The `postgres` superuser's password.
    let password: String
    /// The directory holding `initdb`, `pg_ctl` and `postgres`.
    public let binDirectory: String
    let logger: Logger
    /// When false, the cluster trades crash safety for speed (`initdb --no-sync`, `fsync=off`,
    /// `synchronous_commit=off`, `full_page_writes=off`); meant for throwaway test clusters.
    public var durable = true
    /// Seconds `pg_ctl` waits for the server to start or stop.
    public var timeoutSeconds = 60
    /// Extra server settings passed at start (`-c name=value`), e.g. `["max_connections": "300"]`.
    public var serverSettings: [String: String] = [:]

    /// Describes a cluster; nothing is created until ``initializeIfNeeded()``.
    public init(dataDirectory: String, port: Int, password: String, binDirectory: String, logger: Logger) {
        self.dataDirectory = PostgresCluster.absolutePath(dataDirectory)
        self.port = port
        self.password = password
        self.binDirectory = binDirectory
        self.logger = logger
    }

    /// A libpq connection string for the `postgres` database as the superuser.
    public var connectionString: String { connectionString(database: "postgres") }

    /// A libpq connection string for a database of this cluster, as the superuser.
    public func connectionString(database: String) -> String {
        connectionString(database: database, user: "postgres", password: password)
    }

    /// A libpq connection string for a database of this cluster, as another role.
    public func connectionString(database: String, user: String, password: String) -> String {
        "host=127.0.0.1 port=\(port) user=\(Self.quoteConnectionValue(user)) "
            + "password=\(Self.quoteConnectionValue(password)) dbname=\(Self.quoteConnectionValue(database))"
    }

    /// The server log, inside the data directory.
    public var logFile: String { dataDirectory + "/server.log" }

    /// Creates a database unless it exists.
    public func createDatabase(_ name: String) async throws {
        let connection = try await PGConnection.open(
            connectionString: connectionString, connectTimeoutSeconds: 10, logger: logger)
        defer { connection.close() }
        let existing = try await connection.query("SELECT 1 FROM pg_database WHERE datname = $1", [.text(name)])
        guard existing.rows.isEmpty else { return }
        do {
            try await connection.execute("CREATE DATABASE \(try PGPool.quoteIdentifier(name))")
            logger.debug("database created", metadata: ["db.name": "\(name)"])
        } catch let error as PGError where error.sqlState == "42P04" || error.isUniqueViolation {
            // Created concurrently by someone else.
        }
    }

    /// The highest `/usr/lib/postgresql/<version>/bin` holding `initdb`, else `pg_config --bindir`.
    public static func findBinDirectory() -> String? {
        let root = "/usr/lib/postgresql"
        let fileManager = FileManager.default
        let versions = ((try? fileManager.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap { name -> (version: [Int], path: String)? in
                let path = "\(root)/\(name)/bin"
                guard fileManager.isExecutableFile(atPath: path + "/initdb") else { return nil }
                let version = name.split(separator: ".").map { Int($0) ?? 0 }
                return (version, path)
            }
            .sorted { $0.version.lexicographicallyPrecedes($1.version) }
        if let best = versions.last { return best.path }
        guard let output = try? PGProcess.run("pg_config", ["--bindir"], searchPath: true), output.status == 0
        else { return nil }
        let path = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return fileManager.isExecutableFile(atPath: path + "/initdb") ? path : nil
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bind to port 0, read it, close).
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return Int.random(in: 20_000..<60_000) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else { return Int.random(in: 20_000..<60_000) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Quotes a connection-string value: `'…'` with `\` and `'` escaped.
    static func quoteConnectionValue(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    static func absolutePath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
}
