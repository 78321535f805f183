import Foundation
import SwitchyardCrypto

/// The `v1HMAC` request signature of Worldline Direct's server API.
///
/// The string to sign is the upper-case method, the `Content-Type` value (empty without a body), the
/// `Date` value, every header whose lower-cased name starts with `x-gcs` as `name:value` sorted by name,
/// and the canonical resource (path plus `?` and the raw query), each followed by a line feed.
public enum WorldlineDirectAuthenticator {
    /// Builds the string to sign.
    /// - Parameters:
    ///   - method: HTTP method.
    ///   - contentType: the `Content-Type` header value, nil when absent.
    ///   - date: the `Date` header value.
    ///   - headers: every request header as received (name, value); non-`x-gcs` ones are ignored.
    ///   - resource: the path as sent, with `?` and the raw query when there is one.
    public static func stringToSign(
        method: String,
        contentType: String?,
        date: String,
        headers: [(name: String, value: String)],
        resource: String
    ) -> String {
        var text = method.uppercased() + "\n" + (contentType ?? "") + "\n" + date + "\n"
        let gcs =
            headers
            .map { (name: $0.name.lowercased(), value: normalise($0.value)) }
            .filter { $0.name.hasPrefix("x-gcs") }
            .enumerated()
            .sorted { $0.element.name == $1.element.name ? $0.offset < $1.offset : $0.element.name < $1.element.name }
        for (_, header) in gcs {
            text += header.name + ":" + header.value + "\n"
        }
        return text + resource + "\n"
    }

    /// The `Authorization` header value for the string to sign: `GCS v1HMAC:<keyId>:<base64 HMAC-SHA256>`.
    public static func authorization(apiKeyId: String, secretApiKey: String, stringToSign: String) -> String {
        "GCS v1HMAC:\(apiKeyId):" + signature(secretApiKey: secretApiKey, stringToSign: stringToSign)
    }

    /// The base64 HMAC-SHA256 of the string to sign.
    public static func signature(secretApiKey: String, stringToSign: String) -> String {
        Base64.encode(HMAC.sha256(key: secretApiKey, message: stringToSign))
    }

    /// Formats a date as RFC 1123 GMT, e.g. `Fri, 06 Jun 2014 13:39:43 GMT`.
    public static func httpDate(_ date: Date) -> String {
        formatter().string(from: date)
    }

    /// Parses an RFC 1123 date; nil when malformed.
    public static func parseHTTPDate(_ text: String) -> Date? {
        formatter().date(from: text.trimmingCharacters(in: .whitespaces))
    }

    /// The `(apiKeyId, signature)` of a `GCS v1HMAC:<id>:<signature>` header.
    static func parseAuthorization(_ header: String?) -> (keyId: String, signature: String)? {
        guard let header, header.hasPrefix("GCS v1HMAC:") else { return nil }
        let rest = header.dropFirst("GCS v1HMAC:".count)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let keyId = String(rest[..<colon])
        let signature = String(rest[rest.index(after: colon)...])
        guard !keyId.isEmpty, !signature.isEmpty else { return nil }
        return (keyId, signature)
    }

    /// Folded line breaks collapsed to one space, surrounding whitespace trimmed.
    private static func normalise(_ value: String) -> String {
        var out = ""
        var pendingSpace = false
        for character in value {
            if character == "\r" || character == "\n" {
                pendingSpace = true
                continue
            }
            if pendingSpace {
                if character == " " || character == "\t" { continue }
                out.append(" ")
                pendingSpace = false
            }
            out.append(character)
        }
        return out.trimmingCharacters(in: .whitespaces)
    }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
