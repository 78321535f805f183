import Foundation

/// Removes secret values from a notification body before it is stored: the values of fields the host
/// knows to be secret (provider tokens, card numbers) and of those the plugin names, at any depth of a JSON
/// body or in a form-encoded body. Other bodies are kept as they are.
public enum NotificationRedaction {
    /// What a removed value is replaced with.
    public static let redacted = "[redacted]"

    /// Field names (compared case-insensitively) whose values are never stored.
    public static let knownSecretFields: Set<String> = [
        "accesstoken", "access_token", "refreshtoken", "refresh_token", "cardtoken", "card_token", "token",
        "cardno", "card_no", "cardnumber", "card_number", "pan", "cvv", "cvc", "cvv2", "cardsecuritycode",
        "password", "secret", "client_secret", "clientsecret",
    ]

    /// `body` with the values of secret fields replaced by ``redacted``. A JSON body keeps its other bytes as
    /// they are, unless it has a member name written with an escape or outside ASCII: then it is read in full
    /// and written again with sorted keys.
    public static func redact(_ body: Data, extraFields: [String] = []) -> Data {
        let first = body.first { !isBlank($0) }
        let names =
            extraFields.isEmpty ? knownSecretFields : knownSecretFields.union(extraFields.map { $0.lowercased() })
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            if let ranges = SecretValueScan.ranges(in: body, names: names) {
                return ranges.isEmpty ? body : replacing(ranges, of: body)
            }
            guard let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
                return body
            }
            var changed = false
            let cleaned = redact(value, names: names, changed: &changed)
            guard changed,
                let data = try? JSONSerialization.data(
                    withJSONObject: cleaned, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return body }
            return data
        }
        guard let text = String(data: body, encoding: .utf8), text.contains("=") else { return body }
        var changed = false
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let key = String(pair[..<equals])
            let name = (key.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? key).lowercased()
            guard names.contains(name) else { return String(pair) }
            changed = true
            return key + "=" + "%5Bredacted%5D"
        }
        return changed ? Data(pairs.joined(separator: "&").utf8) : body
    }

    /// `body` with each of `ranges` (in order, apart) replaced by ``redacted`` as a JSON string.
    private static func replacing(_ ranges: [Range<Int>], of body: Data) -> Data {
        var result = Data()
        result.reserveCapacity(body.count)
        var copied = body.startIndex
        for range in ranges {
            result.append(body[copied..<(body.startIndex + range.lowerBound)])
            result.append(contentsOf: #""\#(redacted)""#.utf8)
            copied = body.startIndex + range.upperBound
        }
        result.append(body[copied...])
        return result
    }

    /// JSON's four blanks.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func redact(_ value: Any, names: Set<String>, changed: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, element) in object {
                if names.contains(key.lowercased()), !(element is [String: Any]), !(element is [Any]) {
                    result[key] = redacted
                    changed = true
                } else {
                    result[key] = redact(element, names: names, changed: &changed)
                }
            }
            return result
        }
        if let array = value as? [Any] {
            return array.map { redact($0, names: names, changed: &changed) }
        }
        return value
    }
}
