import Foundation

/// An error from the PostgreSQL driver: a server error (with its SQLSTATE) or a client-side failure.
///
/// The message never contains parameter values: only the server's primary message is kept (never its
/// DETAIL), and for data exceptions (SQLSTATE class 22), whose primary message may quote the rejected
/// input, the quoted part is removed.
public struct PGError: Error, Sendable, CustomStringConvertible {
    /// A stable, machine-readable category of driver error.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable text, e.g. `pg.server_error`.
        public var rawValue: String

        /// Creates a code from its stable text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The server rejected a statement; ``PGError/sqlState`` says why.
        public static let server = Code(rawValue: "pg.server_error")
        /// The connection could not be opened, or was lost.
        public static let connectionFailed = Code(rawValue: "pg.connection_failed")
        /// The pool has been shut down.
        public static let poolClosed = Code(rawValue: "pg.pool_closed")
        /// The configuration (connection string, pool size) is unusable.
        public static let invalidConfiguration = Code(rawValue: "pg.invalid_configuration")
        /// A parameter cannot be sent (e.g. text containing a NUL character).
        public static let invalidParameter = Code(rawValue: "pg.invalid_parameter")
        /// A column is missing, NULL where a value was required, or not in the expected format.
        public static let decoding = Code(rawValue: "pg.decoding")
        /// COMMIT found the transaction already aborted, so the server rolled it back.
        public static let transactionAborted = Code(rawValue: "pg.transaction_aborted")
        /// The server answered with a result the driver does not handle (e.g. COPY).
        public static let unexpectedResult = Code(rawValue: "pg.unexpected_result")
        /// The list of migrations is inconsistent.
        public static let invalidMigrations = Code(rawValue: "pg.invalid_migrations")
        /// A ``PGLease`` was used after the scope that leased its connection had ended.
        public static let leaseEnded = Code(rawValue: "pg.lease_ended")
        /// No pooled connection became free within the pool's acquire timeout.
        public static let poolTimeout = Code(rawValue: "pg.pool_timeout")
        /// The server cancelled a statement that outlasted `statement_timeout` (SQLSTATE 57014) or waited
        /// for a lock past `lock_timeout` (SQLSTATE 55P03); the session stays usable.
        public static let timedOut = Code(rawValue: "pg.timed_out")

        /// The code of a server error with `sqlState`: ``timedOut`` for a cancelled statement or a lock
        /// wait that timed out, ``server`` otherwise.
        static func server(sqlState: String?) -> Code {
            sqlState == "57014" || sqlState == "55P03" ? .timedOut : .server
        }

        public var description: String { rawValue }
    }

    /// The driver's category for this error.
    public var code: Code
    /// The server's five-character SQLSTATE, when the server reported the error.
    public var sqlState: String?
    /// A human-readable message without parameter values.
    public var message: String
    /// The violated constraint's name, when the server reported one.
    public var constraint: String?

    /// Creates an error.
    public init(code: Code, sqlState: String? = nil, message: String, constraint: String? = nil) {
        self.code = code
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
    }

    /// True for `unique_violation` (23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// True for `serialization_failure` (40001): the transaction may be retried as a whole.
    public var isSerializationFailure: Bool { sqlState == "40001" }

    /// True for `deadlock_detected` (40P01): the transaction may be retried as a whole.
    public var isDeadlock: Bool { sqlState == "40P01" }

    /// True when the database was too busy to serve in time: no pooled connection became free, or the
    /// server cancelled a statement or lock wait at its timeout. Worth retrying later.
    public var isBusy: Bool { code == .poolTimeout || code == .timedOut }

    /// True when the database cannot be reached or the connection broke: a failed or lost connection,
    /// a connection exception (SQLSTATE class 08), a server shutting down or starting (57P01 `admin_shutdown`,
    /// 57P02 `crash_shutdown`, 57P03 `cannot_connect_now`), or a write reaching a read-only standby (25006).
    /// Worth retrying shortly, once the server is back or a standby was promoted.
    public var isUnavailable: Bool {
        if code == .connectionFailed { return true }
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || Self.unavailableStates.contains(sqlState)
    }

    private static let unavailableStates: Set<String> = ["57P01", "57P02", "57P03", "25006"]

    public var description: String {
        var text = "PGError(\(code)"
        if let sqlState { text += ", SQLSTATE \(sqlState)" }
        text += "): \(message)"
        if let constraint { text += " [constraint \(constraint)]" }
        return text
    }
}

extension PGError {
    static let poolClosedError = PGError(code: .poolClosed, message: "the connection pool has been shut down")
    static let leaseEndedError = PGError(
        code: .leaseEnded, message: "the leased connection was used after its scope had ended")

    static func poolTimeoutError(_ timeout: Duration) -> PGError {
        let ms = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return PGError(code: .poolTimeout, message: "no database connection became free within \(ms) ms")
    }

    static func decoding(_ column: String, _ problem: String) -> PGError {
        PGError(code: .decoding, message: "column \"\(column)\": \(problem)")
    }

    /// Redacts what a data exception (class 22) quotes, e.g. `invalid input syntax for type uuid: "…"`:
    /// those messages quote the rejected input, which may be a parameter value.
    static func sanitizedServerMessage(_ message: String, sqlState: String?) -> String {
        guard let sqlState, sqlState.hasPrefix("22") else { return message }
        var result = ""
        var quoted = false
        for character in message {
            if character == "\"" {
                if quoted { result += "…\"" } else { result.append(character) }
                quoted.toggle()
            } else if !quoted {
                result.append(character)
            }
        }
        return quoted ? result + "…\"" : result
    }
}
