import Logging
import ServiceLifecycle
import SwitchyardApp

/// What `serve` and `migrate` use when no database URL is given: the development executable's embedded
/// default (a private PostgreSQL cluster, a development policy, the provider sandboxes and a demo tenant).
/// The production executable has none, so it refuses to start without a database URL.
package protocol EmbeddedDefault: Sendable {
    /// The policy file the server reads when none is configured (written in the data directory).
    func policyFile(dataDirectory: String, logger: Logger) throws -> String

    /// Starts (initialising it the first time) the private database kept in the data directory.
    func startDatabase(dataDirectory: String, logger: Logger) async throws -> any EmbeddedDatabaseHandle

    /// What runs beside the server once its runtime is up (the sandboxes; the demo tenant is seeded here).
    func services(
        runtime: SwitchyardRuntime, dataDirectory: String, publicURL: String, operatorToken: String, logger: Logger
    ) async throws -> [any Service]
}

/// A started private database.
package protocol EmbeddedDatabaseHandle {
    /// Connects as the application role (which owns no table).
    var appURL: String { get }
    /// Applies the pending migrations as the owner of the tables; returns the versions applied.
    func migrate(logger: Logger) async throws -> [Int]
    /// Stops the cluster.
    func stop() throws
}
