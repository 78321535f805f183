import Foundation
import Logging

/// The two login roles of a Switchyard database: the owner, which runs migrations, and the
/// application role the server connects as, which owns nothing.
///
/// ``provision(adminConnectionString:database:logger:)`` sets them up the same way for the embedded
/// default, `switchyard migrate` on a private cluster and the tests.
public struct DatabaseRoles: Sendable {
    /// The default name of the role that owns the tables.
    public static let defaultOwner = "switchyard_owner"
    /// The default name of the role the server connects as.
    public static let defaultApp = "switchyard_app"

    /// The owner's role name.
    public var owner: String
    /// The owner's password.
    public var ownerPassword: String
    /// The application role's name.
    public var app: String
    /// The application role's password.
    public var appPassword: String

    /// Describes the roles; nothing is created until ``provision(adminConnectionString:database:logger:)``.
    public init(
        owner: String = DatabaseRoles.defaultOwner, ownerPassword: String, app: String = DatabaseRoles.defaultApp,
        appPassword: String
    ) {
        self.owner = owner
        self.ownerPassword = ownerPassword
        self.app = app
        self.appPassword = appPassword
    }

    /// Creates or updates the roles and hands `database` to the owner (blocking).
    ///
    /// `adminConnectionString` connects to `database` as a superuser (or a role with CREATEROLE that
    /// owns the database). Afterwards:
    /// - the owner is a plain login role that owns the database and may create in schema `public`;
    /// - the application role is a plain login role (no BYPASSRLS), a member of ``Schema/systemRole``
    ///   (its rights on the tables) and of ``Schema/tenantRole`` (which it switches to, subject to
    ///   row-level security);
    /// - nobody else may create objects in `public`.
    ///
    /// Passwords are set on every call. Roles are shared by the whole cluster, so callers that provision
    /// several databases of one cluster at once must not run this concurrently.
    public func provision(adminConnectionString: String, database: String, logger: Logger) async throws {
        let connection = try await PGConnection.open(
            connectionString: adminConnectionString, connectTimeoutSeconds: 10, logger: logger)
        defer { connection.close() }
        for role in [Schema.tenantRole, Schema.systemRole] {
            try await connection.execute(Schema.createRole(role))
        }
        for (role, password) in [(owner, ownerPassword), (app, appPassword)] {
            try await Self.ensureLoginRole(connection, role: role, password: password)
        }
        let owner = try PGPool.quoteIdentifier(owner)
        let app = try PGPool.quoteIdentifier(app)
        let db = try PGPool.quoteIdentifier(database)
        try await connection.execute(
            """
            GRANT \(Schema.systemRole), \(Schema.tenantRole) TO \(app);
            ALTER DATABASE \(db) OWNER TO \(owner);
            GRANT CONNECT, TEMPORARY ON DATABASE \(db) TO \(app);
            REVOKE CREATE ON SCHEMA public FROM PUBLIC;
            GRANT USAGE, CREATE ON SCHEMA public TO \(owner);
            """)
        logger.debug("database roles provisioned", metadata: ["db.name": "\(database)"])
    }

    /// Creates `role` as a plain login role, or makes an existing one plain again, with `password`.
    private static func ensureLoginRole(_ connection: PGConnection, role: String, password: String) async throws {
        let exists = try await !connection.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [.text(role)]).rows
            .isEmpty
        if !exists {
            do {
                try await connection.execute("CREATE ROLE \(try PGPool.quoteIdentifier(role)) LOGIN")
            } catch let error as PGError where error.sqlState == "42710" {
                // Created concurrently by another process.
            }
        }
        // The password is quoted by the server (format %L), never spliced by hand.
        let statement = try await connection.query(
            "SELECT format('ALTER ROLE %I WITH LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD %L', $1::text, $2::text) AS sql",
            [.text(role), .text(password)])
        guard let sql = statement.rows.first?["sql"] else {
            throw PGError(code: .unexpectedResult, message: "cannot build the role statement")
        }
        try await connection.execute(sql)
    }
}
