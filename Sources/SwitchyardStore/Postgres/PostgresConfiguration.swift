/// How to reach PostgreSQL and how many connections to keep.
public struct PostgresConfiguration: Sendable {
    /// A libpq connection string, either `key=value …` or a `postgresql://` URI. It may hold a password,
    /// so it is never logged.
    public var connectionString: String
    /// The number of connections (each with its own thread); at least 1.
    public var poolSize: Int = 8
    /// Seconds to wait for a connection to open; a `connect_timeout` in the connection string wins.
    public var connectTimeoutSeconds: Int = 10

    /// Creates a configuration.
    public init(connectionString: String, poolSize: Int = 8, connectTimeoutSeconds: Int = 10) {
        self.connectionString = connectionString
        self.poolSize = poolSize
        self.connectTimeoutSeconds = connectTimeoutSeconds
    }
}
