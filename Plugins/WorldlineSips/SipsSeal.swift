#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit
import SwitchyardCrypto

/// Worldline Sips seals (PROVIDERS.md §5.2).
///
/// - JSON connectors (In-App init, Office): `seal` is the lowercase hex HMAC-SHA256, keyed with the merchant's
///   secret key as UTF-8, of the seal string: the values of every present, non-null field concatenated in the
///   byte order of the field names, `keyVersion`, `sealAlgorithm` and `seal` left out. A nested object gives its
///   own fields the same way at its name's place; an array gives its elements in order, each expanded the same
///   way. Strings count as they are, integers as their decimal digits, booleans as `true`/`false`.
/// - The automatic response (POST form): `Seal` is the lowercase hex HMAC-SHA256 of the `Data` text as sent, or
///   the lowercase hex SHA-256 of `Data` followed by the secret key; both forms are accepted.
enum SipsSeal {
    /// The algorithm name sent in `sealAlgorithm`.
    static let algorithm = "HMAC-SHA-256"
    /// Top-level fields that never take part in a JSON seal.
    static let excludedFields: Set<String> = ["keyVersion", "sealAlgorithm", "seal"]

    // MARK: JSON seal

    /// The seal string of a JSON object's fields (top-level exclusions applied).
    static func sealString(of fields: [String: JSONValue]) -> String {
        var out = ""
        for name in sortedNames(fields.keys) where !excludedFields.contains(name) {
            if let value = fields[name] { append(value, to: &out) }
        }
        return out
    }

    /// The seal of a JSON object's fields.
    static func seal(of fields: [String: JSONValue], secret: String) -> String {
        Hex.encode(HMAC.sha256(key: secret, message: sealString(of: fields)))
    }

    /// The seal of an encodable request (encoded as JSON first, so the seal covers exactly what is sent).
    ///
    /// - Throws: `bad_request` when the value does not encode to a JSON object (a programming error).
    static func seal(of value: some Encodable, secret: String) throws -> String {
        let json = ProviderJSON.standard
        guard let fields = json.object(from: try json.encode(value)) else {
            throw ProviderError(code: "bad_request", message: "the Sips request is not a JSON object")
        }
        return seal(of: fields, secret: secret)
    }

    /// Whether a response object carries a valid `seal` over its other fields (constant-time comparison; the
    /// received seal's hex case does not matter). A missing or non-string seal is not valid.
    static func verify(_ fields: [String: JSONValue], secret: String) -> Bool {
        guard let received = fields["seal"]?.stringValue else { return false }
        let expected = seal(of: fields, secret: secret)
        return constantTimeEquals(expected, received.lowercased())
    }

    /// Field names in plain byte order of their UTF-8 text.
    static func sortedNames(_ names: some Collection<String>) -> [String] {
        names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Appends one value's contribution to a seal string.
    static func append(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null:
            break
        case .bool(let flag):
            out += flag ? "true" : "false"
        case .integer(let number):
            out += String(number)
        case .number(let number):
            if let whole = Int64(exactly: number) {
                out += String(whole)
            } else {
                out += String(number)
            }
        case .string(let text):
            out += text
        case .array(let elements):
            for element in elements { append(element, to: &out) }
        case .object(let members):
            for name in sortedNames(members.keys) {
                if let member = members[name] { append(member, to: &out) }
            }
        }
    }

    // MARK: Automatic response seal

    /// The HMAC-SHA256 form of a `Data` seal.
    static func hmacDataSeal(_ data: String, secret: String) -> String {
        Hex.encode(HMAC.sha256(key: secret, message: data))
    }

    /// The SHA-256 form of a `Data` seal: SHA-256 of `Data` followed by the secret key.
    static func sha256DataSeal(_ data: String, secret: String) -> String {
        Hex.encode(SHA2.sha256(data + secret))
    }

    /// Whether `seal` is either form of the seal of `data` (both compared in constant time).
    static func verifyData(_ data: String, seal: String, secret: String) -> Bool {
        let received = seal.trimmingBlanks().lowercased()
        let hmacMatches = constantTimeEquals(hmacDataSeal(data, secret: secret), received)
        let shaMatches = constantTimeEquals(sha256DataSeal(data, secret: secret), received)
        return hmacMatches || shaMatches
    }
}
