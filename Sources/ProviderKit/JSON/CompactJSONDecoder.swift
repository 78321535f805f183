#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads JSON into a `Decodable` value from a flat list of its nodes (``JSONTape``), without the dictionary
/// of every object's members and the nested decoders that Foundation's `JSONDecoder` builds on the way.
///
/// A value it decodes is the value `JSONDecoder` decodes from the same bytes, with the same date style and
/// Base64 data, and default keys. Whatever it does not read exactly as `JSONDecoder` does (a document
/// outside strict UTF-8 JSON, a repeated or escaped key, an integer written with a fraction or exponent or
/// that fits no integer type asked for, a number that overflows or underflows a double, `Float`, `Decimal`,
/// `URL`, a `superDecoder`) and every error make it hand the bytes to
/// `JSONDecoder` instead, so a success and each error are always `JSONDecoder`'s.
package struct CompactJSONDecoder: Sendable {
    /// How a `Date` is read.
    package enum DateStyle: Sendable {
        /// `Date`'s own `Decodable` (`JSONDecoder`'s `.deferredToDate`).
        case deferredToDate
        /// Seconds since 1970 as a number (`JSONDecoder`'s `.secondsSince1970`).
        case secondsSince1970
    }

    /// How dates are read.
    package var dates: DateStyle

    package init(dates: DateStyle) {
        self.dates = dates
    }

    /// The `type` value `data` holds.
    ///
    /// - Throws: `JSONDecoder`'s error for the same bytes.
    package func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let value = decodedInOnePass(type, from: [UInt8](data)) { return value }
        return try foundationDecoder().decode(type, from: data)
    }

    /// The `type` value the JSON text `text` holds.
    ///
    /// - Throws: `JSONDecoder`'s error for the same text.
    package func decode<T: Decodable>(_ type: T.Type, fromText text: String) throws -> T {
        if let value = decodedInOnePass(type, from: Array(text.utf8)) { return value }
        return try foundationDecoder().decode(type, from: Data(text.utf8))
    }

    /// The value read from the tape; nil when it declines (the bytes then go to `JSONDecoder`).
    func decodedInOnePass<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
        decodedInOnePass(type, from: [UInt8](data))
    }

    private func decodedInOnePass<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> T? {
        guard let tape = JSONTape.read(bytes) else { return nil }
        let decoder = JSONTapeDecoder(tape: tape, dates: dates)
        guard let value = try? decoder.unwrap(type, at: 0, parent: [], key: nil), !decoder.unsupported else {
            return nil
        }
        return value
    }

    /// Foundation's decoder with the same options.
    private func foundationDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        switch dates {
        case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        }
        return decoder
    }
}
