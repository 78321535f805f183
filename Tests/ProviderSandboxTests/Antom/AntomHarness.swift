import AsyncHTTPClient
import Foundation
import NIOCore
import ProviderSandbox
import SwitchyardCrypto

/// Keys of the Antom tests, generated once per test process.
enum AntomTestKeys {
    /// The merchant's key pair (its public half is configured in the sandbox).
    static let merchant: RSAPrivateKey = generate()
    /// A key the sandbox does not know.
    static let stranger: RSAPrivateKey = generate()

    private static func generate() -> RSAPrivateKey {
        do {
            return try RSAPrivateKey.generate(bits: 2048)
        } catch {
            fatalError("RSA key generation failed: \(error)")
        }
    }

    /// The merchant's public key as bare base64 SPKI (the form Antom's dashboard uses).
    static var merchantPublicBase64: String { Data(merchant.publicKey.spkiDER).base64EncodedString() }
}

/// A running sandbox with one Antom merchant.
struct AntomTestSandbox {
    let server: SandboxServer
    let baseURL: String
    let clock: TestClock
    let clientId: String

    var admin: String { baseURL + "/_sandbox/antom" }
    var antom: AntomSandbox { server.antom }

    /// The merchant's client, signing with its own key and verifying answers with Antom's public key.
    func client(prefix: String = "/antom") async throws -> AntomTestClient {
        AntomTestClient(
            baseURL: baseURL, prefix: prefix, clientId: clientId, key: AntomTestKeys.merchant,
            antomKey: try await antom.publicKey(), clock: clock)
    }

    /// Calls an admin route with a JSON body.
    func adminPost(_ path: String, _ json: [String: Any] = [:]) async throws -> Reply {
        try await send(.post, admin + "/" + path, json: json)
    }
}

/// Runs `body` against a fresh sandbox whose Antom emulator knows one merchant (`clientId`).
func withAntomSandbox(
    clientId: String = "SANDBOX_5X00000000000000",
    authorizationNotifyURL: String? = nil,
    privateKeyPEM: String? = nil,
    failureCardVaults: Bool = false,
    _ body: (AntomTestSandbox) async throws -> Void
) async throws {
    let clock = TestClock()
    let merchant = AntomSandboxMerchant(
        clientId: clientId, merchantPublicKey: AntomTestKeys.merchantPublicBase64,
        authorizationNotifyURL: authorizationNotifyURL)
    var configuration = SandboxConfiguration(
        notificationRetry: SandboxNotificationRetryPolicy(
            maxAttempts: 4, initialDelay: .milliseconds(50), maxDelay: .milliseconds(200), attemptTimeout: .seconds(2)),
        clock: { clock.now })
    configuration.antom = AntomSandboxConfiguration(
        merchants: [merchant], privateKeyPEM: privateKeyPEM, failureCardVaults: failureCardVaults)
    let server = SandboxServer(configuration: configuration, logger: quietLogger)
    try await whileServing(server) { port in
        try await body(
            AntomTestSandbox(server: server, baseURL: "http://127.0.0.1:\(port)", clock: clock, clientId: clientId))
    }
}

// MARK: - Merchant client

/// How the merchant writes `request-time`.
enum AntomTimeStyle {
    /// Epoch milliseconds (as the documentation shows).
    case millis
    /// ISO-8601 with offset (as the Python SDK sends).
    case iso
}

/// The merchant side of the wire: signs requests by Antom's rule (written independently of the sandbox)
/// and checks the signature of the answers.
struct AntomTestClient {
    let baseURL: String
    /// Mount in front of `/ams/…`: `/antom` or empty for the root.
    let prefix: String
    let clientId: String
    let key: RSAPrivateKey
    let antomKey: RSAPublicKey
    let clock: TestClock

    /// Signs and sends `POST <prefix>/ams/<api>/v1/<call>`.
    /// - Parameters:
    ///   - call: e.g. `payments/pay`.
    ///   - json: the body (serialised with sorted keys, so equal dictionaries give equal bytes).
    ///   - sandboxPath: whether to use `/ams/sandbox/api` (default: when the client id starts with `SANDBOX_`).
    ///   - signedPath: the path to sign instead of the one sent.
    ///   - signatureHeader: a whole `signature` header to send instead of the computed one.
    func call(
        _ call: String,
        _ json: [String: Any],
        sandboxPath: Bool? = nil,
        signedPath: String? = nil,
        signingKey: RSAPrivateKey? = nil,
        timeStyle: AntomTimeStyle = .millis,
        rawBody: [UInt8]? = nil,
        clientIdHeader: String? = nil,
        signatureHeader: ((String) -> String)? = nil
    ) async throws -> AntomAnswer {
        let api = (sandboxPath ?? clientId.hasPrefix("SANDBOX_")) ? "/ams/sandbox/api/v1/" : "/ams/api/v1/"
        let path = prefix + api + call
        let body = try rawBody ?? Array(JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]))
        let time: String
        switch timeStyle {
        case .millis: time = String(Int64(clock.now.timeIntervalSince1970 * 1000))
        case .iso: time = isoTime(clock.now)
        }
        let content = Array("POST \(signedPath ?? path)\n\(clientId).\(time).".utf8) + body
        let raw = try (signingKey ?? key).signSHA256(content)
        let encoded = quotePlus(Data(raw).base64EncodedString())
        let header = signatureHeader?(encoded) ?? "algorithm=RSA256,keyVersion=1,signature=\(encoded)"
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json; charset=UTF-8")
        request.headers.add(name: "client-id", value: clientIdHeader ?? clientId)
        request.headers.add(name: "request-time", value: time)
        request.headers.add(name: "signature", value: header)
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let bytes = Array(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        var headers: [String: String] = [:]
        for field in response.headers { headers[field.name.lowercased()] = field.value }
        return AntomAnswer(
            status: Int(response.status.code), headers: headers, body: bytes,
            signatureValid: verify(headers: headers, body: bytes, path: signedPath ?? path))
    }

    /// Whether the answer's signature verifies over `path`; nil when the answer is unsigned.
    private func verify(headers: [String: String], body: [UInt8], path: String) -> Bool? {
        guard let header = headers["signature"], let time = headers["response-time"] else { return nil }
        guard headers["client-id"] == clientId, let range = header.range(of: "signature=") else { return false }
        let value = String(header[range.upperBound...]).removingPercentEncoding ?? ""
        guard let raw = Data(base64Encoded: value) else { return false }
        let content = Array("POST \(path)\n\(clientId).\(time).".utf8) + body
        return antomKey.verifySHA256(signature: Array(raw), message: content)
    }
}

/// Python's `quote_plus` for a base64 value.
func quotePlus(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}

/// ISO-8601 with a `+00:00` offset and second precision.
func isoTime(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'+00:00'"
    return formatter.string(from: date)
}

/// An answer of the Antom emulator.
struct AntomAnswer: @unchecked Sendable {
    let status: Int
    let headers: [String: String]
    let body: [UInt8]
    /// nil when unsigned, otherwise whether the signature verified.
    let signatureValid: Bool?

    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    var result: [String: Any] { object["result"] as? [String: Any] ?? [:] }
    var resultStatus: String? { result["resultStatus"] as? String }
    var resultCode: String? { result["resultCode"] as? String }
    func string(_ key: String) -> String? { object[key] as? String }
    func dict(_ path: String...) -> [String: Any] {
        var current = object
        for key in path { current = current[key] as? [String: Any] ?? [:] }
        return current
    }
}

// MARK: - Request bodies

enum AntomBodies {
    static func money(_ value: Int64, _ currency: String = "USD") -> [String: Any] {
        ["currency": currency, "value": String(value)]
    }

    static func order(_ value: Int64) -> [String: Any] {
        [
            "referenceOrderId": "order-\(value)", "orderDescription": "test order", "orderAmount": money(value),
            "buyer": ["referenceBuyerId": "buyer-1"],
        ]
    }

    /// An EasySafePay `createPaymentSession` body.
    static func session(
        requestId: String, amount: Int64, notifyURL: String, authState: String? = "auth-state-1",
        expiry: String? = nil
    ) -> [String: Any] {
        var body: [String: Any] = [
            "productCode": "AGREEMENT_PAYMENT", "productScene": "EASY_PAY", "paymentRequestId": requestId,
            "paymentAmount": money(amount), "paymentMethod": ["paymentMethodType": "GCASH"], "order": order(amount),
            "env": ["terminalType": "APP", "osType": "IOS"], "settlementStrategy": ["settlementCurrency": "USD"],
            "paymentNotifyUrl": notifyURL, "paymentRedirectUrl": "https://shop.example/return",
        ]
        if let authState { body["agreementInfo"] = ["authState": authState, "userLoginId": "user@example.com"] }
        if let expiry { body["paymentSessionExpiryTime"] = expiry }
        return body
    }

    /// A wallet `pay` body with an access token.
    static func walletPay(requestId: String, amount: Int64, accessToken: String, notifyURL: String? = nil)
        -> [String: Any]
    {
        var body: [String: Any] = [
            "productCode": "AGREEMENT_PAYMENT", "paymentRequestId": requestId, "paymentAmount": money(amount),
            "paymentMethod": ["paymentMethodType": "GCASH", "paymentMethodId": accessToken], "order": order(amount),
            "env": ["terminalType": "APP"], "settlementStrategy": ["settlementCurrency": "USD"],
            "paymentRedirectUrl": "https://shop.example/return",
        ]
        if let notifyURL { body["paymentNotifyUrl"] = notifyURL }
        return body
    }

    /// A card `pay` body with a vaulted card token.
    static func cardPay(requestId: String, amount: Int64, cardToken: String, captureMode: String, notifyURL: String?)
        -> [String: Any]
    {
        var body: [String: Any] = [
            "productCode": "CASHIER_PAYMENT", "paymentRequestId": requestId, "paymentAmount": money(amount),
            "paymentMethod": ["paymentMethodType": "CARD", "paymentMethodId": cardToken],
            "paymentFactor": ["isAuthorization": true, "captureMode": captureMode], "order": order(amount),
            "env": ["terminalType": "APP"], "settlementStrategy": ["settlementCurrency": "USD"],
            "paymentRedirectUrl": "https://shop.example/return",
        ]
        if let notifyURL { body["paymentNotifyUrl"] = notifyURL }
        return body
    }

    static func vaultingSession(requestId: String, notifyURL: String) -> [String: Any] {
        [
            "paymentMethodType": "CARD", "vaultingRequestId": requestId, "vaultingNotificationUrl": notifyURL,
            "redirectUrl": "https://shop.example/vaulted", "merchantRegion": "US", "is3DSAuthentication": "false",
        ]
    }
}
