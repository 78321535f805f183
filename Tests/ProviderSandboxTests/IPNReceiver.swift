import Foundation
import Hummingbird
import NIOCore
import SwitchyardCrypto

/// What a merchant's IPN endpoint received.
actor IPNInbox {
    private(set) var messages: [IPNMessage] = []
    private(set) var hits = 0
    private var failuresLeft: Int

    init(failFirst: Int) {
        self.failuresLeft = failFirst
    }

    /// Records a delivery; answers false (→ HTTP 500) while failures are left.
    func receive(contentType: String, body: [UInt8]) -> Bool {
        hits += 1
        if failuresLeft > 0 {
            failuresLeft -= 1
            return false
        }
        messages.append(IPNMessage(contentType: contentType, body: body))
        return true
    }
}

/// One IPN as received, decoded from the form or JSON body.
struct IPNMessage: Sendable {
    let contentType: String
    let fields: [String: String]

    init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        let text = String(decoding: body, as: UTF8.self)
        if contentType.hasPrefix("application/json") {
            let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
            fields = object.compactMapValues { $0 as? String }
        } else {
            var decoded: [String: String] = [:]
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = Self.formDecode(parts[0])
                decoded[key] = parts.count > 1 ? Self.formDecode(parts[1]) : ""
            }
            fields = decoded
        }
    }

    subscript(_ key: String) -> String? { fields[key] }

    /// Recomputes the sign by the contract's rule, written independently of the sandbox.
    func expectedSign(secret: String) -> String? {
        guard let names = fields["fields"] else { return nil }
        var keys = names.split(separator: ",").map(String.init)
        keys.append("fields")
        var parts: [String] = []
        for key in keys.sorted() {
            parts.append("\(key)=\(fields[key] ?? "")")
        }
        let text = parts.joined(separator: "&") + "&secret=" + secret
        return Hex.encode(SHA2.sha256(Array(text.utf8)))
    }

    /// Whether `sign` matches the recomputed value.
    func signVerifies(secret: String) -> Bool {
        guard let sign = fields["sign"], let expected = expectedSign(secret: secret) else { return false }
        return constantTimeEquals(sign, expected)
    }

    private static func formDecode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

/// Runs a local IPN receiver (`POST /ipn`) for the duration of `body`.
func withIPNReceiver(
    failFirst: Int = 0,
    _ body: (_ url: String, _ inbox: IPNInbox) async throws -> Void
) async throws {
    let inbox = IPNInbox(failFirst: failFirst)
    let router = Router()
    router.post("ipn") { request, _ -> Response in
        let buffer = try await request.body.collect(upTo: 1 << 20)
        let accepted = await inbox.receive(
            contentType: request.headers[.contentType] ?? "",
            body: Array(buffer.readableBytesView)
        )
        return Response(status: accepted ? .ok : .internalServerError)
    }
    try await whileReceiving(router) { port in
        try await body("http://127.0.0.1:\(port)/ipn", inbox)
    }
}
