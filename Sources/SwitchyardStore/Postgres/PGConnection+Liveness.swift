import CLibPQ
import Foundation

extension PGConnection {
    /// The parameters given to `PQconnectdbParams` (with `expand_dbname`): those before `dbname` are
    /// defaults the connection string overrides when it sets them, so an operator's `keepalives_idle`,
    /// `tcp_user_timeout` or `target_session_attrs` wins.
    ///
    /// `target_session_attrs=read-write` makes libpq skip a read-only server (a standby) at connect,
    /// trying the next host of a multi-host connection string, so a connection always reaches the primary.
    static func connectParameters(
        connectionString: String, connectTimeoutSeconds: Int, keepalive: PostgresConfiguration.Keepalive
    ) -> [(String, String)] {
        [("connect_timeout", String(connectTimeoutSeconds)), ("fallback_application_name", "switchyard")]
            + keepalive.parameters
            + [("target_session_attrs", "read-write"), ("dbname", connectionString), ("client_encoding", "UTF8")]
    }

    /// The options the open session actually uses (`PQconninfo`), by keyword; passwords are left out.
    var effectiveParameters: [String: String] {
        guard let conn = handle, let options = PQconninfo(conn) else { return [:] }
        defer { PQconninfoFree(options) }
        var result: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            let name = String(cString: keyword)
            if name != "password", let value = option.pointee.val { result[name] = String(cString: value) }
            option += 1
        }
        return result
    }

    /// Whether the server closed a session while it sat idle in the pool (a restart, a failover,
    /// `pg_terminate_backend`): between statements the server sends nothing, so a readable socket means
    /// its closing message or the end of the stream. Such a session is reopened rather than used. (A rare
    /// asynchronous parameter change or notice reopens a good session too: a reconnect, never an error.)
    static func closedWhileIdle(_ conn: OpaquePointer) -> Bool {
        let socket = PQsocket(conn)
        guard socket >= 0 else { return true }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }
}
