#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Codable mirrors of Worldline Sips 2.0 JSON (In-App init, Office cash management, diagnostic and wallet).
// Every response field is optional and read leniently (codes as strings or numbers, amounts as integers or
// digit strings) so that a partial answer still decodes; the mapping decides what is required. Request
// fields that are always sent are not optional; optional request fields are omitted when nil.

/// A Sips JSON request: carries the common fields and gets its `seal` just before it is sent.
protocol SipsSealedRequest: Encodable, Sendable {
    /// The seal over every other field; nil until sealed.
    var seal: String? { get set }
}

extension KeyedDecodingContainer {
    /// A scalar as text: strings as they are, integers and booleans printed; nil when absent, null or not a
    /// scalar.
    func sipsText(_ key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return text }
        if let number = try? decodeIfPresent(Int64.self, forKey: key) { return String(number) }
        if let flag = try? decodeIfPresent(Bool.self, forKey: key) { return flag ? "true" : "false" }
        return nil
    }

    /// An amount in minor units: an integer, or a string of ASCII digits; nil otherwise.
    func sipsAmount(_ key: Key) -> Int64? {
        if let number = try? decodeIfPresent(Int64.self, forKey: key) { return number }
        guard let text = try? decodeIfPresent(String.self, forKey: key)?.trimmingBlanks(),
            !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Int64(text)
    }
}
