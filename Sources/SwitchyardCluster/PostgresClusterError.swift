import SwitchyardStore

/// A failure to set up, start or stop a private PostgreSQL cluster.
public struct PostgresClusterError: Error, Sendable, CustomStringConvertible {
    /// A stable, machine-readable category.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable text, e.g. `cluster.start_failed`.
        public var rawValue: String

        /// Creates a code from its stable text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The PostgreSQL server binaries (`initdb`, `pg_ctl`) were not found.
        public static let binariesMissing = Code(rawValue: "cluster.binaries_missing")
        /// The data directory cannot be used (e.g. the `postgres` user cannot reach it).
        public static let unusableDirectory = Code(rawValue: "cluster.unusable_directory")
        /// `initdb` failed.
        public static let initializationFailed = Code(rawValue: "cluster.initialization_failed")
        /// The server did not start.
        public static let startFailed = Code(rawValue: "cluster.start_failed")
        /// The server did not stop.
        public static let stopFailed = Code(rawValue: "cluster.stop_failed")
        /// Another server already runs on the data directory, on a different port.
        public static let alreadyRunning = Code(rawValue: "cluster.already_running")
        /// A helper program could not be run.
        public static let commandFailed = Code(rawValue: "cluster.command_failed")

        public var description: String { rawValue }
    }

    /// The category of failure.
    public var code: Code
    /// What went wrong, including the tail of the tool's or server's output where useful.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "PostgresClusterError(\(code)): \(message)" }
}
