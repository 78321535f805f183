import Foundation
import SwitchyardCrypto

/// The `Switchyard-Signature` header of webhook deliveries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
/// "<t>.<body>" under the endpoint's secret>`. While a rotated secret's overlap lasts, one `v1=` entry
/// follows per secret (the new one first). Receivers recompute the MAC over the raw body, accept any
/// `v1` that matches their secret, and reject old timestamps, so a captured delivery cannot be replayed later.
public enum WebhookSignature {
    /// The header name.
    public static let header = "Switchyard-Signature"

    /// The header value for `body` sent at `timestamp`.
    public static func sign(secret: String, timestamp: Int, body: Data) -> String {
        sign(secrets: [secret], timestamp: timestamp, body: body)
    }

    /// The header value for `body` sent at `timestamp`, with one `v1=` entry per secret, in order.
    public static func sign(secrets: [String], timestamp: Int, body: Data) -> String {
        (["t=\(timestamp)"] + secrets.map { "v1=\(mac(secret: $0, timestamp: timestamp, body: body))" })
            .joined(separator: ",")
    }

    /// Why a signature is refused.
    public enum Failure: Error, Equatable {
        case malformed
        case tooOld
        case mismatch
    }

    /// Checks a received header against the raw body: any `v1` value may match (several appear while a
    /// secret is rotated), and the timestamp must be within `tolerance` seconds of `now`.
    public static func verify(
        header value: String, secret: String, body: Data, now: Date, tolerance: TimeInterval = 300
    ) -> Result<Int, Failure> {
        var timestamp: Int?
        var candidates: [String] = []
        for part in value.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int(pair[1]) }
            if pair[0] == "v1" { candidates.append(pair[1].lowercased()) }
        }
        guard let timestamp, !candidates.isEmpty else { return .failure(.malformed) }
        guard abs(now.timeIntervalSince1970 - Double(timestamp)) <= tolerance else { return .failure(.tooOld) }
        let expected = Array(mac(secret: secret, timestamp: timestamp, body: body).utf8)
        guard candidates.contains(where: { constantTimeEquals(Array($0.utf8), expected) }) else {
            return .failure(.mismatch)
        }
        return .success(timestamp)
    }

    private static func mac(secret: String, timestamp: Int, body: Data) -> String {
        Hex.encode(HMAC.sha256(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + Array(body)))
    }
}
