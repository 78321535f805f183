import Foundation
import SwitchyardCore

/// The one SQL of every paged list: the rows of a table in a scope (a tenant, an event, …), filtered by a
/// ``PageRequest``'s creation window and status, ordered by (creation time, id) newest first and cut after
/// a cursor item, with one row more than the page so the caller knows whether more follow. The cursor item
/// must exist within the scope (seen through the caller's connection, so row-level security hides other
/// tenants' items): otherwise `400 invalid_parameter` names the cursor parameter.
struct PageQuery: Sendable {
    /// The table (or `table alias`).
    let table: String
    /// The columns the rows are read with.
    var columns = "*"
    var idColumn = "id"
    /// The SQL type of ids; cursors are checked to parse as one (`text`, `uuid` or `bigint`).
    var idType = "text"
    var createdColumn = "created_at"
    /// The column (or SQL expression) ``PageRequest/status`` filters on, when the list has one.
    var statusColumn: String? = "status"
    /// The column ``PageRequest/livemode`` filters on, for lists of objects that have a mode.
    var livemodeColumn: String?

    /// The rows of `page`: newest first, or oldest first for an `ending_before` page (see
    /// ``PageRequest/page(_:)``), at most `page.limit + 1`. `scope` are SQL conditions over `params`
    /// ($1, $2, …) that every row and the cursor item must meet.
    func rows(_ c: PGConnection, _ page: PageRequest, scope: [String] = [], params: [PGValue] = []) async throws
        -> [PGRow]
    {
        var params = params
        var scope = scope
        if let livemode = page.livemode, let livemodeColumn {
            // Part of the scope: a cursor naming an item of the other mode is no item of this list.
            params.append(.bool(livemode))
            scope.append("\(livemodeColumn) = $\(params.count)::boolean")
        }
        var conditions = scope
        func parameter(_ value: PGValue, _ cast: String) -> String {
            params.append(value)
            return "$\(params.count)::\(cast)"
        }
        if let cursor = page.cursor {
            let name = if case .after = cursor { "starting_after" } else { "ending_before" }
            let id = parameter(try cursorValue(cursor.id, name), idType)
            let found = try await c.query(
                "SELECT 1 FROM \(table) WHERE \((scope + ["\(idColumn) = \(id)"]).joined(separator: " AND "))",
                params)
            guard found.first != nil else {
                throw CoreError(.invalidParameter, "\(name) must be the id of an item of this list", param: name)
            }
            let comparison = if case .after = cursor { "<" } else { ">" }
            let bare = table.split(separator: " ").first.map(String.init) ?? table
            conditions.append(
                "(\(createdColumn), \(idColumn)) \(comparison) (SELECT \(plain(createdColumn)), \(plain(idColumn)) "
                    + "FROM \(bare) WHERE \(plain(idColumn)) = \(id))")
        }
        let bounds: [(Date?, String)] = [
            (page.created.gte, ">="), (page.created.gt, ">"), (page.created.lte, "<="), (page.created.lt, "<"),
        ]
        for case let (date?, comparison) in bounds {
            conditions.append("\(createdColumn) \(comparison) \(parameter(.timestamp(date), "timestamptz"))")
        }
        if let status = page.status, let statusColumn {
            conditions.append("\(statusColumn) = \(parameter(.text(status), "text"))")
        }
        let direction = if case .before = page.cursor { "ASC" } else { "DESC" }
        let filter = conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND ")
        let limit = parameter(.int(Int64(page.limit) + 1), "bigint")
        return try await c.query(
            """
            SELECT \(columns) FROM \(table) WHERE \(filter)
            ORDER BY \(createdColumn) \(direction), \(idColumn) \(direction) LIMIT \(limit)
            """,
            params
        ).rows
    }

    /// The cursor as a value of the id column's type; `400 invalid_parameter` when it cannot be one.
    private func cursorValue(_ id: String, _ name: String) throws -> PGValue {
        switch idType {
        case "uuid":
            guard let uuid = UUID(uuidString: id) else { break }
            return .uuid(uuid)
        case "bigint":
            guard let number = Int64(id) else { break }
            return .int(number)
        default:
            return .text(id)
        }
        throw CoreError(.invalidParameter, "\(name) must be the id of an item of this list", param: name)
    }

    /// A column without its table alias (`e.created_at` → `created_at`).
    private func plain(_ column: String) -> String {
        column.split(separator: ".").last.map(String.init) ?? column
    }
}
