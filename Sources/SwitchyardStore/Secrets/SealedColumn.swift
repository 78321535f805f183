/// A column of the schema that holds values sealed by ``SecretBox``, with how to find its rows and the
/// context each value is sealed for.
struct SealedColumn: Sendable {
    /// The table.
    let table: String
    /// The sealed column: text, or a jsonb object of sealed strings when `isMap`.
    let column: String
    /// The primary key's columns with their SQL types.
    let keys: [(name: String, type: String)]
    /// Whether the column is a jsonb object whose values are each sealed (for the context, with the field name).
    let isMap: Bool
    /// The context a value is sealed for, from the primary key's values (as text) and, in a map, the field name.
    let context: @Sendable (_ keys: [String], _ field: String?) -> String

    /// The table and column, as reports name them.
    var name: String { "\(table).\(column)" }

    /// Every sealed column, with the contexts the store seals its values for.
    static let all: [SealedColumn] = [
        SealedColumn(
            table: "provider_accounts", column: "secret_credentials", keys: [("id", "uuid")], isMap: true,
            context: { keys, field in SealContext.accountCredential(keys[0], field: field ?? "") }),
        SealedColumn(
            table: "webhook_endpoints", column: "secret_encrypted", keys: [("id", "text")], isMap: false,
            context: { keys, _ in SealContext.webhook(keys[0]) }),
        SealedColumn(
            table: "webhook_endpoints", column: "previous_secret_encrypted", keys: [("id", "text")], isMap: false,
            context: { keys, _ in SealContext.webhook(keys[0]) }),
        SealedColumn(
            table: "provider_tokens", column: "token_encrypted", keys: [("account_id", "uuid"), ("kind", "text")],
            isMap: false, context: { keys, _ in SealContext.token(keys[0], kind: keys[1]) }),
        SealedColumn(
            table: "stored_credentials", column: "token", keys: [("id", "text")], isMap: false,
            context: { keys, _ in SealContext.credential(keys[0]) }),
        SealedColumn(
            table: "payment_operations", column: "replay", keys: [("id", "text")], isMap: false,
            context: { keys, _ in SealContext.operation(keys[0]) }),
    ]

    /// The condition of a row that holds a value not sealed by the key whose `v2:<id>:%` pattern is `$1`.
    var pendingCondition: String {
        isMap
            ? "EXISTS (SELECT 1 FROM jsonb_each_text(\(column)) e WHERE e.value NOT LIKE $1)"
            : "\(column) IS NOT NULL AND \(column) NOT LIKE $1"
    }

    /// Up to `$2` rows holding a value not sealed by the key of pattern `$1`, locked; rows another
    /// transaction holds are skipped (they are being written, with the current key, or are taken next time).
    var pendingBatch: String {
        let keyList = keys.map(\.name).joined(separator: ", ")
        let selected = keys.enumerated().map { "\($0.element.name)::text AS k\($0.offset)" }.joined(separator: ", ")
        return """
            SELECT \(selected), \(column)::text AS sealed FROM \(table) WHERE \(pendingCondition)
            ORDER BY \(keyList) LIMIT $2 FOR UPDATE SKIP LOCKED
            """
    }

    /// Sets the column to `$1` on the row whose primary key is `$2…`.
    var update: String {
        let match = keys.enumerated().map { "\($0.element.name) = $\($0.offset + 2)::\($0.element.type)" }
            .joined(separator: " AND ")
        return "UPDATE \(table) SET \(column) = $1\(isMap ? "::jsonb" : "") WHERE \(match)"
    }

    /// How many values each key (by id; `legacy` for values without one) seals in this column.
    var usage: String {
        let value = isMap ? "e.value" : column
        let from = isMap ? "\(table), jsonb_each_text(\(column)) e" : "\(table) WHERE \(column) IS NOT NULL"
        return """
            SELECT CASE WHEN split_part(\(value), ':', 1) = 'v2' THEN split_part(\(value), ':', 2) ELSE 'legacy' END
                AS key_id, count(*) AS n
            FROM \(from) GROUP BY 1 ORDER BY 1
            """
    }
}
