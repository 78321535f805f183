import CLibPQ
import Foundation

extension PGConnection {
    /// Converts a libpq result into a ``PGResult`` (or throws its error) and frees it.
    static func makeResult(_ result: OpaquePointer?, connection conn: OpaquePointer) throws -> PGResult {
        guard let result else {
            throw PGError(
                code: PQstatus(conn) == CONNECTION_OK ? .unexpectedResult : .connectionFailed,
                message: connectionErrorMessage(conn))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        switch status {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return PGResult(rows: [], affectedRows: affectedRows(result))
        case PGRES_TUPLES_OK:
            return PGResult(rows: rows(result), affectedRows: affectedRows(result))
        case PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR, PGRES_BAD_RESPONSE:
            throw error(from: result, connection: conn)
        default:
            let name = PQresStatus(status).map { String(cString: $0) } ?? "unknown"
            throw PGError(code: .unexpectedResult, message: "unsupported result status \(name)")
        }
    }

    /// The connection's last error, on one line.
    static func connectionErrorMessage(_ conn: OpaquePointer) -> String {
        oneLine(PQerrorMessage(conn).map { String(cString: $0) } ?? "")
    }

    private static func error(from result: OpaquePointer, connection conn: OpaquePointer) -> PGError {
        let sqlState = field(result, cpq_diag_sqlstate())
        let connectionLost = PQstatus(conn) != CONNECTION_OK
        guard let primary = field(result, cpq_diag_message_primary()) else {
            let message = oneLine(PQresultErrorMessage(result).map { String(cString: $0) } ?? "")
            return PGError(
                code: connectionLost ? .connectionFailed : .unexpectedResult, sqlState: sqlState,
                message: message.isEmpty ? connectionErrorMessage(conn) : message)
        }
        return PGError(
            code: connectionLost ? .connectionFailed : PGError.Code.server(sqlState: sqlState), sqlState: sqlState,
            message: PGError.sanitizedServerMessage(primary, sqlState: sqlState),
            constraint: field(result, cpq_diag_constraint_name()))
    }

    private static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        PQresultErrorField(result, code).map { String(cString: $0) }
    }

    private static func affectedRows(_ result: OpaquePointer) -> Int {
        PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
    }

    private static func rows(_ result: OpaquePointer) -> [PGRow] {
        let fieldCount = PQnfields(result)
        let rowCount = PQntuples(result)
        var index: [String: Int] = [:]
        for column in 0..<fieldCount {
            let name = PQfname(result, column).map { String(cString: $0) } ?? ""
            if index[name] == nil { index[name] = Int(column) }
        }
        var rows: [PGRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(Int(fieldCount))
            for column in 0..<fieldCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                } else {
                    values.append(PQgetvalue(result, row, column).map { String(cString: $0) } ?? "")
                }
            }
            rows.append(PGRow(columnIndex: index, values: values))
        }
        return rows
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
