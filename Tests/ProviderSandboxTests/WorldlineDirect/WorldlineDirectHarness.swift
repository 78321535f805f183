import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import ProviderSandbox
import SwitchyardCrypto

/// Merchants of the Worldline Direct tests.
enum WLMerchants {
    static func m1(webhookURL: String? = nil) -> WorldlineDirectSandboxMerchant {
        WorldlineDirectSandboxMerchant(
            merchantId: "MERCH1", apiKeyId: "KEYID123", secretApiKey: "secret-key-abc", webhookKeyId: "WHKEY1",
            webhookSecret: "webhook-secret", webhookURL: webhookURL)
    }

    static let m2 = WorldlineDirectSandboxMerchant(
        merchantId: "MERCH2", apiKeyId: "KEYID456", secretApiKey: "secret-key-def", webhookKeyId: "WHKEY2",
        webhookSecret: "webhook-secret-2")
}

/// A running sandbox with Worldline Direct merchants.
struct WLSandbox {
    let server: SandboxServer
    let baseURL: String
    let clock: TestClock

    var root: String { baseURL + "/worldline-direct" }
    var admin: String { baseURL + "/_sandbox/worldline-direct" }
    var m1: WLClient {
        WLClient(root: root, merchantId: "MERCH1", keyId: "KEYID123", secret: "secret-key-abc", clock: clock)
    }
}

/// Runs `body` against a fresh sandbox whose Worldline Direct emulator knows `MERCH1` and `MERCH2`.
func withWorldlineSandbox(
    webhookURL: String? = nil,
    processingDelay: Duration = .zero,
    _ body: (WLSandbox) async throws -> Void
) async throws {
    let clock = TestClock()
    var configuration = SandboxConfiguration(
        notificationRetry: SandboxNotificationRetryPolicy(
            maxAttempts: 4, initialDelay: .milliseconds(50), maxDelay: .milliseconds(200), attemptTimeout: .seconds(2)),
        clock: { clock.now })
    configuration.worldlineDirect = WorldlineDirectSandboxConfiguration(
        merchants: [WLMerchants.m1(webhookURL: webhookURL), WLMerchants.m2],
        publicKeyBits: 2048,
        processingDelay: processingDelay)
    let server = SandboxServer(configuration: configuration, logger: quietLogger)
    try await whileServing(server) { port in
        try await body(WLSandbox(server: server, baseURL: "http://127.0.0.1:\(port)", clock: clock))
    }
}

/// A merchant's server-API client that signs requests by the v1HMAC rule, written independently of
/// the sandbox's own authenticator.
struct WLClient {
    let root: String
    let merchantId: String
    let keyId: String
    let secret: String
    let clock: TestClock

    /// Sends a signed request to `/v2/{merchantId}/<path>`.
    func call(
        _ method: String,
        _ path: String,
        json: Any? = nil,
        extraHeaders: [(String, String)] = [],
        date: Date? = nil,
        signingSecret: String? = nil,
        signedResource: String? = nil
    ) async throws -> WLReply {
        let resource = "/worldline-direct/v2/\(merchantId)/\(path)"
        let dateText = httpDate(date ?? clock.now)
        let contentType = json == nil ? "" : "application/json"
        var text = "\(method)\n\(contentType)\n\(dateText)\n"
        for (name, value) in extraHeaders.map({ ($0.0.lowercased(), $0.1) }).sorted(by: { $0.0 < $1.0 })
        where name.hasPrefix("x-gcs") {
            text += "\(name):\(value)\n"
        }
        text += (signedResource ?? resource) + "\n"
        let signature = Data(HMAC.sha256(key: Array((signingSecret ?? secret).utf8), message: Array(text.utf8)))
            .base64EncodedString()
        var headers = [("Authorization", "GCS v1HMAC:\(keyId):\(signature)"), ("Date", dateText)] + extraHeaders
        if json != nil { headers.append(("Content-Type", contentType)) }
        return try await wlSend(
            method, root.replacingOccurrences(of: "/worldline-direct", with: "") + resource,
            headers: headers, json: json)
    }

    func createPayment(
        card: String, amount: Int64 = 1000, mode: String = "SALE", idempotenceKey: String? = nil,
        webhookURL: String? = nil
    ) async throws -> WLReply {
        var body: [String: Any] = [
            "order": [
                "amountOfMoney": ["amount": amount, "currencyCode": "EUR"],
                "references": ["merchantReference": "ref-\(amount)"],
            ],
            "cardPaymentMethodSpecificInput": [
                "authorizationMode": mode,
                "card": ["cardNumber": card, "expiryDate": "1230", "cvv": "123", "cardholderName": "Test Holder"],
                "threeDSecure": ["redirectionData": ["returnUrl": "https://shop.example/return"]],
            ],
        ]
        if let webhookURL { body["feedbacks"] = ["webhooksUrls": [webhookURL]] }
        let headers = idempotenceKey.map { [("X-GCS-Idempotence-Key", $0)] } ?? []
        return try await call("POST", "payments", json: body, extraHeaders: headers)
    }

    func createSession() async throws -> (sessionId: String, customerId: String, clientApiUrl: String) {
        let reply = try await call("POST", "sessions", json: [String: Any]())
        return (
            reply.string("clientSessionId") ?? "", reply.string("customerId") ?? "", reply.string("clientApiUrl") ?? ""
        )
    }
}

func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
}

/// An HTTP answer of the Worldline Direct emulator.
struct WLReply: @unchecked Sendable {
    let status: Int
    let headers: [String: String]
    let body: [UInt8]
    let object: [String: Any]

    func string(_ key: String) -> String? { object[key] as? String }
    func dict(_ path: String...) -> [String: Any] {
        var current = object
        for key in path { current = current[key] as? [String: Any] ?? [:] }
        return current
    }
    var payment: [String: Any] { dict("payment") }
    var errorCode: String? { (object["errors"] as? [[String: Any]])?.first?["errorCode"] as? String }
}

/// A client that returns redirects instead of following them (lives as long as the test process).
let nonRedirectingClient = HTTPClient(
    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
    configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

func wlSend(
    _ method: String, _ url: String, headers: [(String, String)] = [], json: Any? = nil, followRedirects: Bool = true
) async throws -> WLReply {
    var request = HTTPClientRequest(url: url)
    request.method = .init(rawValue: method)
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let json {
        request.body = .bytes(ByteBuffer(bytes: Array(try JSONSerialization.data(withJSONObject: json))))
    }
    let client = followRedirects ? HTTPClient.shared : nonRedirectingClient
    let response = try await client.execute(request, timeout: .seconds(20))
    let bytes = Array(try await response.body.collect(upTo: 1 << 20).readableBytesView)
    var answerHeaders: [String: String] = [:]
    for header in response.headers { answerHeaders[header.name.lowercased()] = header.value }
    let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    return WLReply(status: Int(response.status.code), headers: answerHeaders, body: bytes, object: object)
}

/// Numeric JSON value as Int64.
func int64(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }

// MARK: - Webhook receiver

/// One webhook as received.
struct WLWebhook: @unchecked Sendable {
    let signature: String?
    let keyId: String?
    let body: [UInt8]
    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    var type: String? { object["type"] as? String }

    /// Recomputes base64(HMAC-SHA256(secret, raw body)).
    func verifies(secret: String) -> Bool {
        guard let signature else { return false }
        let expected = Data(HMAC.sha256(key: Array(secret.utf8), message: body)).base64EncodedString()
        return constantTimeEquals(expected, signature)
    }
}

actor WLWebhookInbox {
    private(set) var received: [WLWebhook] = []
    func add(_ webhook: WLWebhook) { received.append(webhook) }
    func ofType(_ type: String) -> [WLWebhook] { received.filter { $0.type == type } }
}

/// Runs a local webhook receiver (`POST /hook`) for the duration of `body`.
func withWebhookReceiver(_ body: (_ url: String, _ inbox: WLWebhookInbox) async throws -> Void) async throws {
    let inbox = WLWebhookInbox()
    let router = Router()
    router.post("hook") { request, _ -> Response in
        let buffer = try await request.body.collect(upTo: 1 << 20)
        await inbox.add(
            WLWebhook(
                signature: request.headers[HTTPFields.Element.Name("X-GCS-Signature")!],
                keyId: request.headers[HTTPFields.Element.Name("X-GCS-KeyId")!],
                body: Array(buffer.readableBytesView)))
        return Response(status: .ok)
    }
    try await whileReceiving(router) { port in
        try await body("http://127.0.0.1:\(port)/hook", inbox)
    }
}
