import Foundation
import Hummingbird
import NIOCore
import SwitchyardCrypto

/// One notification as received by the merchant.
struct AntomNotification: @unchecked Sendable {
    let path: String
    let clientId: String?
    let requestTime: String?
    let signature: String?
    let body: [UInt8]

    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    var notifyType: String? { object["notifyType"] as? String }
    var authorizationType: String? { object["authorizationNotifyType"] as? String }
    var result: [String: Any] { object["result"] as? [String: Any] ?? [:] }
    func string(_ key: String) -> String? { object[key] as? String }

    /// Verifies the signature over `POST <path>\n<clientId>.<request-time>.<body>` with Antom's key.
    func verifies(with key: RSAPublicKey) -> Bool {
        guard let clientId, let requestTime, let signature, let range = signature.range(of: "signature=") else {
            return false
        }
        let value = String(signature[range.upperBound...]).removingPercentEncoding ?? ""
        guard let raw = Data(base64Encoded: value) else { return false }
        let content = Array("POST \(path)\n\(clientId).\(requestTime).".utf8) + body
        return key.verifySHA256(signature: Array(raw), message: content)
    }
}

/// What the merchant's notification endpoint received.
actor AntomInbox {
    private(set) var received: [AntomNotification] = []
    private(set) var hits = 0
    private var nonAcksLeft: Int

    init(nonAcks: Int) {
        self.nonAcksLeft = nonAcks
    }

    /// Records a delivery; returns whether to acknowledge it.
    func receive(_ notification: AntomNotification) -> Bool {
        hits += 1
        if nonAcksLeft > 0 {
            nonAcksLeft -= 1
            return false
        }
        received.append(notification)
        return true
    }

    func ofType(_ type: String) -> [AntomNotification] { received.filter { $0.notifyType == type } }
    func authorizations(_ type: String) -> [AntomNotification] {
        received.filter { $0.authorizationType == type }
    }
}

/// The acknowledgement Antom expects.
let antomAck = #"{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"success"}}"#

/// Runs a local notification receiver (`POST /antom/notify` and `POST /antom/auth`) for the duration of
/// `body`. The first `nonAcks` deliveries are answered HTTP 200 with `nonAckBody`, which is not an
/// acknowledgement.
func withAntomReceiver(
    nonAcks: Int = 0,
    nonAckBody: String = "OK",
    _ body: (_ baseURL: String, _ inbox: AntomInbox) async throws -> Void
) async throws {
    let inbox = AntomInbox(nonAcks: nonAcks)
    let router = Router()
    for path in ["antom/notify", "antom/auth"] {
        router.post(RouterPath(path)) { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            let notification = AntomNotification(
                path: request.uri.path, clientId: request.headers[HTTPFields.Element.Name("client-id")!],
                requestTime: request.headers[HTTPFields.Element.Name("request-time")!],
                signature: request.headers[HTTPFields.Element.Name("signature")!], body: Array(buffer.readableBytesView)
            )
            let acknowledged = await inbox.receive(notification)
            let text = acknowledged ? antomAck : nonAckBody
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
    try await whileReceiving(router) { port in
        try await body("http://127.0.0.1:\(port)/antom", inbox)
    }
}
