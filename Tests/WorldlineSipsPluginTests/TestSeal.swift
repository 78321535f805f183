import Foundation
import ProviderKit
import SwitchyardCrypto

/// The JSON seal computed again, independently of the plugin's code, from the rule's text: values of the
/// present fields in byte order of their names (`keyVersion`, `sealAlgorithm`, `seal` left out at the top),
/// objects expanded in place, arrays element by element.
enum TestSeal {
    static func string(_ fields: [String: JSONValue]) -> String {
        fields.keys
            .filter { !["keyVersion", "sealAlgorithm", "seal"].contains($0) }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { value(fields[$0] ?? .null) }
            .joined()
    }

    static func value(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return "\(number)"
        case .number(let number): return "\(Int64(number))"
        case .string(let text): return text
        case .array(let elements): return elements.map(Self.value).joined()
        case .object(let members):
            return members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                .map { Self.value(members[$0] ?? .null) }.joined()
        }
    }

    static func seal(_ fields: [String: JSONValue], secret: String = Fixtures.secretKey) -> String {
        HMAC.sha256(key: Array(secret.utf8), message: Array(string(fields).utf8)).hex
    }
}
