import Foundation
import Hummingbird
import NIOCore
import SwitchyardCrypto

/// One automatic response as the merchant received it.
struct SipsAutomaticResponse: Sendable {
    let contentType: String
    /// The form fields (`Data`, `Seal`, `InterfaceVersion`, `Encode`).
    let form: [String: String]

    init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode: (Substring) -> String = { text in
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        self.form = fields
    }

    /// The `Data` text, decoded from base64 when `Encode` says so.
    var dataText: String {
        let raw = form["Data"] ?? ""
        guard form["Encode"] == "base64" else { return raw }
        return Data(base64Encoded: raw).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The `key=value|…` pairs of `Data`.
    var data: [String: String] {
        var fields: [String: String] = [:]
        for pair in dataText.split(separator: "|") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            fields[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return fields
    }

    subscript(_ key: String) -> String? { data[key] }

    /// Whether `Seal` is the HMAC-SHA256 of the Data text as sent.
    func hmacSealVerifies(secret: String) -> Bool {
        constantTimeEquals(form["Seal"] ?? "", SipsTestSeal.hmac(form["Data"] ?? "", secret: secret))
    }

    /// Whether `Seal` is the SHA-256 of the Data text as sent followed by the secret.
    func sha256SealVerifies(secret: String) -> Bool {
        let expected = Hex.encode(SHA2.sha256(Array(((form["Data"] ?? "") + secret).utf8)))
        return constantTimeEquals(form["Seal"] ?? "", expected)
    }
}

/// What the merchant's automatic-response endpoint received.
actor SipsInbox {
    private(set) var received: [SipsAutomaticResponse] = []
    private(set) var hits = 0
    private var failuresLeft: Int

    init(failFirst: Int) {
        self.failuresLeft = failFirst
    }

    /// Records a delivery; answers false (→ HTTP 500) while failures are left.
    func receive(_ response: SipsAutomaticResponse) -> Bool {
        hits += 1
        if failuresLeft > 0 {
            failuresLeft -= 1
            return false
        }
        received.append(response)
        return true
    }

    func about(_ reference: String) -> [SipsAutomaticResponse] {
        received.filter { $0["transactionReference"] == reference }
    }
}

/// Runs a local automatic-response receiver (`POST /sips/auto`) for the duration of `body`.
func withSipsReceiver(
    failFirst: Int = 0,
    _ body: (_ url: String, _ inbox: SipsInbox) async throws -> Void
) async throws {
    let inbox = SipsInbox(failFirst: failFirst)
    let router = Router()
    router.post("sips/auto") { request, _ -> Response in
        let buffer = try await request.body.collect(upTo: 1 << 20)
        let response = SipsAutomaticResponse(
            contentType: request.headers[.contentType] ?? "", body: Array(buffer.readableBytesView))
        let accepted = await inbox.receive(response)
        return Response(status: accepted ? .ok : .internalServerError)
    }
    try await whileReceiving(router) { port in
        try await body("http://127.0.0.1:\(port)/sips/auto", inbox)
    }
}
