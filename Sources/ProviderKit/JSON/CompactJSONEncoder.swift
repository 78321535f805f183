#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes JSON as a value encodes itself, without the tree, the dictionaries and the key sort that
/// Foundation's `JSONEncoder` builds on the way.
///
/// The output differs from `JSONEncoder`'s in one respect only: a type's keys come in the order its
/// `encode(to:)` writes them (a synthesised conformance: declaration order), not sorted. A `[String: Value]`
/// dictionary's keys are sorted by their UTF-8 bytes, as `.sortedKeys` sorts them, so equal values give
/// equal bytes. Strings, integers, floating-point numbers, `Date`, `Data` (Base64), `URL` and `Decimal` are
/// written as `JSONEncoder` writes them with the same date style and slash escaping; there is no whitespace.
///
/// A value that asks for what this writer does not do (a `superEncoder`, a container used after its
/// parent moved on, an ISO 8601 date outside years 1583 to 9999, a number JSON has not) is encoded by `JSONEncoder` instead, with
/// sorted keys and the same options: the answer is always valid JSON of the same value.
package struct CompactJSONEncoder: Sendable {
    /// How a `Date` is written.
    package enum DateStyle: Sendable {
        /// Seconds since 1970 as a number (`JSONEncoder`'s `.secondsSince1970`).
        case secondsSince1970
        /// `2026-12-07T03:50:06Z`, whole seconds in UTC (`JSONEncoder`'s `.iso8601`).
        case iso8601
    }

    /// How dates are written.
    package var dates: DateStyle
    /// Whether `/` is written `\/`, as `JSONEncoder` does unless told `.withoutEscapingSlashes`.
    package var escapesSlashes: Bool

    package init(dates: DateStyle = .secondsSince1970, escapesSlashes: Bool = true) {
        self.dates = dates
        self.escapesSlashes = escapesSlashes
    }

    /// The JSON of `value`.
    package func encode<T: Encodable>(_ value: T) throws -> Data {
        let writer = JSONStreamWriter(dates: dates, escapesSlashes: escapesSlashes)
        try writer.write(value)
        if writer.unsupported {
            return try foundationEncoder().encode(value)
        }
        return Data(writer.bytes)
    }

    /// Foundation's encoder with the same options, for what this writer does not do.
    private func foundationEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapesSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
        switch dates {
        case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
        case .iso8601: encoder.dateEncodingStrategy = .iso8601
        }
        return encoder
    }
}
