/// The outcome of one statement: its rows (if any) and the number of rows it affected.
public struct PGResult: Sendable {
    /// The returned rows, in order; empty for statements that return none.
    public var rows: [PGRow]
    /// Rows inserted, updated, deleted, selected, … as reported by the server; 0 when not applicable.
    public var affectedRows: Int

    /// Creates a result.
    public init(rows: [PGRow], affectedRows: Int) {
        self.rows = rows
        self.affectedRows = affectedRows
    }

    /// The first row, if any.
    public var first: PGRow? { rows.first }
}
