#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit
import SwitchyardCrypto

/// Worldline Direct's `v1HMAC` request signature and webhook signature rules.
///
/// A request's string to sign is: the upper-case method, the `Content-Type` (empty without a body), the
/// `Date`, then every `x-gcs*` header as `name:value` (name lower-cased, value with folded line breaks
/// collapsed and trimmed) sorted by name, then the path plus `?query` as sent; each line ends in `\n`.
/// The signature is base64(HMAC-SHA256(secret API key, string to sign)).
enum WorldlineDirectSigning {
    /// The string to sign. It contains no secret, but it is never logged either.
    static func stringToSign(
        method: String, contentType: String?, date: String, headers: [HTTPHeader], resource: String
    ) -> String {
        var lines = [method.uppercased(), contentType ?? "", date]
        let gcs = headers.compactMap { header -> (String, String)? in
            let name = header.name.lowercased()
            guard name.hasPrefix("x-gcs") else { return nil }
            return (name, normalisedValue(header.value))
        }
        let sorted = gcs.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
        lines += sorted.map { "\($0.0):\($0.1)" }
        lines.append(resource)
        return lines.map { $0 + "\n" }.joined()
    }

    /// A header value with folded line breaks collapsed to one space, then trimmed.
    static func normalisedValue(_ value: String) -> String {
        var scalars = String.UnicodeScalarView()
        var inBreak = false
        for scalar in value.unicodeScalars {
            if scalar == "\r" || scalar == "\n" {
                inBreak = true
            } else if inBreak, scalar == " " || scalar == "\t" {
                continue
            } else {
                if inBreak { scalars.append(" ") }
                inBreak = false
                scalars.append(scalar)
            }
        }
        return String(scalars).trimmingBlanks()
    }

    /// The `Authorization` header value: `GCS v1HMAC:<keyId>:<signature>`.
    static func authorization(keyId: String, secret: String, stringToSign: String) -> String {
        "GCS v1HMAC:" + keyId + ":" + Base64.encode(HMAC.sha256(key: secret, message: stringToSign))
    }

    /// The canonical resource of a URL: its path (as encoded) plus `?` and the query as sent.
    static func canonicalResource(url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard let query = components.percentEncodedQuery else { return path }
        return path + "?" + query
    }

    /// An RFC 1123 date in GMT, e.g. `Fri, 06 Jun 2014 13:39:43 GMT`.
    static func rfc1123(_ date: Date) -> String {
        ProviderTime.rfc1123(date)
    }

    /// The webhook signature: base64(HMAC-SHA256(webhook secret, raw body)).
    static func webhookSignature(body: Data, secret: String) -> String {
        Base64.encode(HMAC.sha256(key: secret, message: Array(body)))
    }

    /// Whether `provided` is the webhook signature of `body`, compared in constant time.
    static func verifyWebhook(body: Data, signature provided: String, secret: String) -> Bool {
        let expected = webhookSignature(body: body, secret: secret)
        return constantTimeEquals(
            Array(expected.utf8), Array(provided.trimmingBlanks().utf8))
    }
}
