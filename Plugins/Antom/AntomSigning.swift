#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit
import SwitchyardCrypto

/// The parts of a `signature` header: `algorithm=RSA256,keyVersion=<n>,signature=<urlencoded base64>`.
struct AntomSignatureHeader: Sendable, Equatable {
    /// `RSA256`, when the header names it.
    var algorithm: String?
    /// The key version, when the header names it.
    var keyVersion: String?
    /// The signature value as sent (still URL-encoded).
    var signature: String
}

/// Antom's RSA signatures over requests, responses and notifications.
///
/// The content signed is `"<METHOD> <path>\n<clientId>.<time>.<body>"`, where the path is the URL's path as it
/// appears on the wire (including any base-URL prefix and query) and the body is the exact bytes. The signature
/// is RSASSA-PKCS1-v1_5 with SHA-256, base64-encoded, then URL-encoded like Python's `quote_plus`.
enum AntomSigning {
    /// The algorithm name in the `signature` header.
    static let algorithm = "RSA256"

    /// The bytes signed for a request (`time` = `request-time`) or a response (`time` = `response-time`).
    static func content(
        method: String = "POST", path: String, clientId: String, time: String, body: some Collection<UInt8>
    ) -> [UInt8] {
        Array("\(method) \(path)\n\(clientId).\(time).".utf8) + Array(body)
    }

    /// The signature of `content`, base64 then URL-encoded, ready for the header.
    static func sign(_ content: [UInt8], with key: RSAPrivateKey) throws -> String {
        FormEncoding.quotePlus(Base64.encode(try key.signSHA256(content)))
    }

    /// The `signature` header value.
    static func header(keyVersion: String, encodedSignature: String) -> String {
        "algorithm=\(algorithm),keyVersion=\(keyVersion),signature=\(encodedSignature)"
    }

    /// Whether `headerValue` carries a valid signature of `content` by `key`. A malformed header, an algorithm
    /// other than `RSA256`, or a signature that is not base64 are all simply `false`.
    static func verify(_ content: [UInt8], headerValue: String, key: RSAPublicKey) -> Bool {
        guard let header = parseHeader(headerValue),
            header.algorithm.map({ $0.uppercased() == algorithm }) ?? true,
            let text = FormEncoding.percentDecode(header.signature),
            let signature = Base64.decode(text.trimmingBlanks())
        else { return false }
        return key.verifySHA256(signature: signature, message: content)
    }

    /// Parses a `signature` header tolerantly: fields in any order, separated by commas with optional
    /// spaces, names compared case-insensitively; nil without a `signature` field.
    static func parseHeader(_ value: String) -> AntomSignatureHeader? {
        var fields: [String: String] = [:]
        for part in value.split(separator: ",") {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = part[..<equals].trimmingBlanks().lowercased()
            let fieldValue = part[part.index(after: equals)...].trimmingBlanks()
            if fields[name] == nil { fields[name] = fieldValue }
        }
        guard let signature = fields["signature"], !signature.isEmpty else { return nil }
        return AntomSignatureHeader(
            algorithm: fields["algorithm"], keyVersion: fields["keyversion"], signature: signature)
    }

    /// `request-time`: epoch milliseconds.
    static func requestTime(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// How far a notification's signed `request-time` may be from the host's clock, either way.
    static let notificationTolerance: TimeInterval = 600

    /// The time of a `request-time` value: epoch milliseconds (Antom's documentation) or ISO-8601 with an
    /// offset (Antom's SDKs); nil when it is neither.
    static func parseRequestTime(_ value: String) -> Date? {
        let text = value.trimmingBlanks()
        if !text.isEmpty, text.utf8.count <= 16, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let milliseconds = Int64(text)
        {
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        return AntomMapping.parseTime(text)
    }

    /// Whether a signed `request-time` is within ``notificationTolerance`` of `now` (an unreadable one is not).
    static func isFresh(_ value: String, now: Date) -> Bool {
        guard let time = parseRequestTime(value) else { return false }
        return abs(time.timeIntervalSince(now)) <= notificationTolerance
    }
}
