#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SwitchyardCrypto

/// The result of checking an IPN's `sign`.
enum CitconSignatureCheck: Equatable, Sendable {
    /// The signature verified; only the signed fields (and `fields` itself) are returned.
    case verified(signed: [String: String])
    /// The signature did not verify; the reason names no secret and no value.
    case rejected(reason: String)
}

/// Citcon's IPN signature rule.
///
/// Take every key named in the comma-separated `fields` value plus the key `fields` itself, sort the keys,
/// join them as `k1=v1&k2=v2…` with raw values (an empty or absent value gives `key=`), append
/// `&secret=<ipn_secret>`, and hash with SHA-256; `sign` is the lowercase hex digest.
enum CitconSigning {
    /// The names a `fields` value covers, plus `fields` itself, sorted and without duplicates.
    static func signedKeys(fieldsValue: String) -> [String] {
        var keys = Set(
            fieldsValue.split(separator: ",").map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
        )
        keys.insert(CitconIPNField.fields)
        return keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// The signed fields as `k1=v1&k2=v2…` in the canonical order, without the secret: what identifies an
    /// IPN (fields the signature does not cover play no part).
    static func canonical(values: [String: String]) -> String {
        let keys = signedKeys(fieldsValue: values[CitconIPNField.fields] ?? "")
        return keys.map { "\($0)=\(values[$0] ?? "")" }.joined(separator: "&")
    }

    /// The string that is hashed, secret included. Never log it.
    static func signString(values: [String: String], secret: String) -> String {
        canonical(values: values) + "&secret=" + secret
    }

    /// The lowercase hex SHA-256 `sign` for these values.
    static func sign(values: [String: String], secret: String) -> String {
        Hex.encode(SHA2.sha256(Array(signString(values: values, secret: secret).utf8)))
    }

    /// Checks the `sign` of a parsed IPN in constant time.
    ///
    /// Rejects a body that repeats a field, lacks `fields` or `sign`, or whose `sign` does not match.
    static func verify(_ pairs: [(key: String, value: String)], secret: String) -> CitconSignatureCheck {
        var values: [String: String] = [:]
        for pair in pairs {
            guard values[pair.key] == nil else { return .rejected(reason: "repeated field") }
            values[pair.key] = pair.value
        }
        guard let provided = values[CitconIPNField.sign], !provided.isEmpty else {
            return .rejected(reason: "missing sign")
        }
        guard let fieldsValue = values[CitconIPNField.fields], !fieldsValue.isEmpty else {
            return .rejected(reason: "missing fields")
        }
        let expected = sign(values: values, secret: secret)
        guard constantTimeEquals(Array(expected.utf8), Array(provided.lowercased().utf8)) else {
            return .rejected(reason: "signature mismatch")
        }
        var signed: [String: String] = [:]
        for key in signedKeys(fieldsValue: fieldsValue) {
            signed[key] = values[key] ?? ""
        }
        return .verified(signed: signed)
    }
}
