import Foundation
import SwitchyardCrypto

/// Antom's RSA signature rule, shared by requests, answers and notifications:
/// `"<METHOD> <path>\n<clientId>.<time>.<body>"` signed with RSASSA-PKCS1-v1_5 SHA-256, base64, then
/// URL-encoded like Python's `quote_plus`, sent as `signature: algorithm=RSA256,keyVersion=<n>,signature=<value>`.
enum AntomSignature {
    /// The parts of a `signature` header.
    struct Header: Equatable {
        var algorithm: String?
        var keyVersion: String?
        /// The signature value, still URL-encoded.
        var signature: String
    }

    /// The bytes that are signed.
    static func content(method: String, path: String, clientId: String, time: String, body: [UInt8]) -> [UInt8] {
        Array("\(method) \(path)\n\(clientId).\(time).".utf8) + body
    }

    /// Signs `content` and returns the URL-encoded base64 value.
    static func sign(_ content: [UInt8], with key: RSAPrivateKey) throws -> String {
        urlEncode(Base64.encode(try key.signSHA256(content)))
    }

    /// Verifies a URL-encoded (or plain) base64 signature value over `content`.
    static func verify(_ value: String, content: [UInt8], with key: RSAPublicKey) -> Bool {
        guard let raw = Base64.decode(urlDecode(value)) else { return false }
        return key.verifySHA256(signature: raw, message: content)
    }

    /// The header value announcing `signature` (already URL-encoded).
    static func headerValue(keyVersion: String, signature: String) -> String {
        "algorithm=RSA256,keyVersion=\(keyVersion),signature=\(signature)"
    }

    /// Parses a `signature` header tolerantly: parts separated by commas, optional spaces, any order,
    /// case-insensitive names. Nil when no `signature=` part is present.
    static func parseHeader(_ text: String?) -> Header? {
        guard let text else { return nil }
        var header = Header(signature: "")
        var found = false
        for part in text.split(separator: ",") {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "algorithm": header.algorithm = value
            case "keyversion": header.keyVersion = value
            case "signature":
                header.signature = value
                found = !value.isEmpty
            default: continue
            }
        }
        return found ? header : nil
    }

    /// Percent-encodes everything but ASCII letters, digits and `_.-~` (so `+`→`%2B`, `/`→`%2F`, `=`→`%3D`).
    static func urlEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"),
                UInt8(ascii: "~"):
                result.append(Character(UnicodeScalar(byte)))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Decodes `%XX` escapes; a literal `+` stays `+` (a base64 value never contains spaces).
    static func urlDecode(_ text: String) -> String {
        text.removingPercentEncoding ?? text
    }
}

/// Antom's time formats.
enum AntomTime {
    /// ISO-8601 with a numeric UTC offset and second precision, e.g. `2026-11-21T12:00:00+00:00`.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d+00:00", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// Parses ISO-8601 with an offset or `Z`, with or without fractional seconds.
    static func parse(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// `yyyyMMdd` of `date` in UTC, the prefix of the ids the emulator hands out.
    static func dayStamp(_ date: Date) -> String {
        String(format(date).prefix(10).filter(\.isNumber))
    }
}
