import Foundation
import SwitchyardCrypto

/// The merchant's side of the Sips seal, written from the contract independently of the sandbox.
enum SipsTestSeal {
    /// The seal string of a message: values of the members in byte order of their names, nested objects
    /// and arrays expanded in place, `keyVersion`, `sealAlgorithm` and `seal` left out.
    static func sealString(_ message: [String: Any]) -> String {
        var out = ""
        for name in sortedNames(message.keys) where !["keyVersion", "sealAlgorithm", "seal"].contains(name) {
            append(message[name] as Any, to: &out)
        }
        return out
    }

    private static func sortedNames(_ names: Dictionary<String, Any>.Keys) -> [String] {
        names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func append(_ value: Any, to out: inout String) {
        switch value {
        case let text as String: out += text
        case let number as Int: out += String(number)
        case let number as Int64: out += String(number)
        case let flag as Bool: out += flag ? "true" : "false"
        case let number as NSNumber: out += number.stringValue
        case let list as [Any]:
            for element in list { append(element, to: &out) }
        case let object as [String: Any]:
            for name in sortedNames(object.keys) { append(object[name] as Any, to: &out) }
        default: break
        }
    }

    /// Lowercase hex HMAC-SHA256 of `text` with `secret`.
    static func hmac(_ text: String, secret: String) -> String {
        Hex.encode(HMAC.sha256(key: Array(secret.utf8), message: Array(text.utf8)))
    }

    /// The seal of a message.
    static func seal(_ message: [String: Any], secret: String) -> String {
        hmac(sealString(message), secret: secret)
    }

    /// Whether a received message carries the right seal; nil when it carries none.
    static func verify(_ message: [String: Any], secret: String) -> Bool? {
        guard let seal = message["seal"] as? String else { return nil }
        return constantTimeEquals(seal, self.seal(message, secret: secret))
    }
}
