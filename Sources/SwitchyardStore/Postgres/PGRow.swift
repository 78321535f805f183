import Foundation
import ProviderKit

/// One row of a result, as the server's text output, read by column name.
///
/// Typed accessors throw ``PGError`` with code ``PGError/Code/decoding`` when the column is missing,
/// NULL, or not in the expected format; the `optional…` forms return nil instead.
public struct PGRow: Sendable {
    /// Column name to index; shared by all rows of a result.
    let columnIndex: [String: Int]
    /// Raw text per column, nil for NULL.
    let values: [String?]

    init(columnIndex: [String: Int], values: [String?]) {
        self.columnIndex = columnIndex
        self.values = values
    }

    /// The column names, in result order.
    public var columns: [String] {
        columnIndex.sorted { $0.value < $1.value }.map(\.key)
    }

    /// The raw text of a column; nil when it is NULL or absent.
    public subscript(_ column: String) -> String? {
        guard let index = columnIndex[column] else { return nil }
        return values[index]
    }

    /// The raw text of a column that must be present and not NULL.
    public func string(_ column: String) throws -> String {
        guard let index = columnIndex[column] else { throw PGError.decoding(column, "no such column") }
        guard let value = values[index] else { throw PGError.decoding(column, "is NULL") }
        return value
    }

    /// The raw text of a column, or nil when NULL or absent.
    public func optionalString(_ column: String) -> String? { self[column] }

    /// A `bigint`/`int`/`smallint` column.
    public func int64(_ column: String) throws -> Int64 {
        try decode(column, as: "an integer") { Int64($0) }
    }

    /// An integer column, or nil when NULL, absent or malformed.
    public func optionalInt64(_ column: String) -> Int64? { self[column].flatMap { Int64($0) } }

    /// A `float8`/`float4`/`numeric` column.
    public func double(_ column: String) throws -> Double {
        try decode(column, as: "a number") { PGRow.parseDouble($0) }
    }

    /// A boolean column (`t`/`f`).
    public func bool(_ column: String) throws -> Bool {
        try decode(column, as: "a boolean") { PGRow.parseBool($0) }
    }

    /// A boolean column, or nil when NULL, absent or malformed.
    public func optionalBool(_ column: String) -> Bool? { self[column].flatMap(PGRow.parseBool) }

    /// A `uuid` column.
    public func uuid(_ column: String) throws -> UUID {
        try decode(column, as: "a UUID") { UUID(text: $0) }
    }

    /// A `uuid` column, or nil when NULL, absent or malformed.
    public func optionalUUID(_ column: String) -> UUID? { self[column].flatMap { UUID(text: $0) } }

    /// A `timestamptz` (or `timestamp`, taken as UTC, or `date`) column, to the microsecond.
    public func date(_ column: String) throws -> Date {
        try decode(column, as: "a timestamp") { PGTimestamp.parse($0) }
    }

    /// A timestamp column, or nil when NULL, absent or malformed.
    public func optionalDate(_ column: String) -> Date? { self[column].flatMap(PGTimestamp.parse) }

    /// A `bytea` column in hex output format.
    public func bytes(_ column: String) throws -> [UInt8] {
        try decode(column, as: "bytea in hex format") { PGHex.decode($0) }
    }

    /// A `bytea` column, or nil when NULL, absent or malformed.
    public func optionalBytes(_ column: String) -> [UInt8]? { self[column].flatMap(PGHex.decode) }

    private func decode<T>(_ column: String, as kind: String, _ parse: (String) -> T?) throws -> T {
        guard let value = parse(try string(column)) else { throw PGError.decoding(column, "is not \(kind)") }
        return value
    }

    private static func parseBool(_ text: String) -> Bool? {
        switch text {
        case "t", "true": return true
        case "f", "false": return false
        default: return nil
        }
    }

    private static func parseDouble(_ text: String) -> Double? {
        switch text {
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        case "NaN": return .nan
        default: return Double(text)
        }
    }
}
