import Foundation
import ProviderKit

/// A statement parameter.
///
/// Every value travels in PostgreSQL's text format; the statement casts where the type is not
/// otherwise inferred (`$1::uuid`, `$2::jsonb`, `$3::timestamptz`, `$4::bytea`).
public enum PGValue: Sendable, Equatable {
    /// Text, sent verbatim. It must not contain a NUL character.
    case text(String)
    /// A 64-bit integer.
    case int(Int64)
    /// A boolean, sent as `true`/`false`.
    case bool(Bool)
    /// A double, sent in its shortest exact form (`Infinity`, `-Infinity`, `NaN` included).
    case double(Double)
    /// A UUID in lowercase canonical form.
    case uuid(UUID)
    /// An instant, sent in UTC with microsecond precision.
    case timestamp(Date)
    /// JSON text, typically cast with `::jsonb`.
    case json(String)
    /// Binary data, sent in bytea hex format (`\x…`).
    case bytea([UInt8])
    /// SQL NULL.
    case null
}

extension PGValue {
    /// `.text(value)`, or `.null` when the value is nil.
    public init(_ value: String?) { self = value.map(PGValue.text) ?? .null }

    /// `.int(value)`, or `.null` when the value is nil.
    public init(_ value: Int64?) { self = value.map(PGValue.int) ?? .null }

    /// `.int(value)`, or `.null` when the value is nil.
    public init(_ value: Int?) { self = value.map { PGValue.int(Int64($0)) } ?? .null }

    /// `.bool(value)`, or `.null` when the value is nil.
    public init(_ value: Bool?) { self = value.map(PGValue.bool) ?? .null }

    /// `.uuid(value)`, or `.null` when the value is nil.
    public init(_ value: UUID?) { self = value.map(PGValue.uuid) ?? .null }

    /// `.timestamp(value)`, or `.null` when the value is nil.
    public init(_ value: Date?) { self = value.map(PGValue.timestamp) ?? .null }

    /// The text sent to the server, or nil for NULL.
    ///
    /// - Parameter position: the 1-based parameter number, used only in the error message.
    func encoded(position: Int) throws -> String? {
        switch self {
        case .text(let value), .json(let value):
            guard !value.utf8.contains(0) else {
                throw PGError(code: .invalidParameter, message: "parameter $\(position) contains a NUL character")
            }
            return value
        case .int(let value):
            return String(value)
        case .bool(let value):
            return value ? "true" : "false"
        case .double(let value):
            if value.isNaN { return "NaN" }
            if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
            return value.description
        case .uuid(let value):
            return value.text()
        case .timestamp(let value):
            return PGTimestamp.format(value)
        case .bytea(let bytes):
            return PGHex.encode(bytes)
        case .null:
            return nil
        }
    }
}

extension [PGValue] {
    /// The parameters as libpq takes them: text, or nil for NULL, each checked for its position.
    func encoded() throws -> [String?] {
        try enumerated().map { try $1.encoded(position: $0 + 1) }
    }
}
