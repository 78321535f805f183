import Foundation
import ProviderKit
import ProviderTestSupport
import SwitchyardCrypto
import Testing

@testable import AntomPlugin

/// This target's scripted host.
typealias FakeHost = PluginFakeHost<Fixtures>

/// Shared test values. Keys are generated once per test run; tokens are distinctive so a leak is easy to find.
enum Fixtures: PluginTestFixtures {
    static let baseURL = "http://127.0.0.1:9999/antom"
    static let clientId = "SANDBOX_5X00000000000000"
    static let apiPrefix = "/ams/sandbox/api/v1/"
    static let notificationURL = "https://switchyard.test/notifications/acct_antom_1"
    static let notificationPath = "/notifications/acct_antom_1"
    /// 2025-11-08T11:06:40Z.
    static let now = Date(timeIntervalSince1970: 1_762_600_000)
    static let responseTime = "2025-11-08T11:06:41+00:00"
    static let accessToken = "TOKEN_SECRET_access_0001"
    static let cardToken = "ALIPAY_SECRET_card_0002"
    static let paymentId = "202511081900000000001"

    /// The merchant's key (our private key; Antom verifies with its public half).
    static let merchantKey: RSAPrivateKey = {
        do { return try RSAPrivateKey.generate() } catch { preconditionFailure("RSA key generation failed") }
    }()
    /// Antom's key (signs answers and notifications; the account holds its public half).
    static let antomKey: RSAPrivateKey = {
        do { return try RSAPrivateKey.generate() } catch { preconditionFailure("RSA key generation failed") }
    }()

    /// The merchant private key as bare base64 of the PKCS#8 DER (Antom's own key format).
    static var merchantKeyBase64: String {
        merchantKey.pkcs8PEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    }

    /// A body of the PEM private key that must never appear in any output.
    static var privateKeyFragment: String {
        String(merchantKeyBase64.dropFirst(100).prefix(40))
    }

    static func account(
        options: [String: String] = [:], privateKey: String? = nil, keyVersion: String? = nil,
        baseURL: String = baseURL, clientId: String = clientId
    ) -> AccountContext {
        var credentials = [
            "client_id": clientId,
            "private_key": privateKey ?? merchantKey.pkcs8PEM,
            "antom_public_key": antomKey.publicKey.spkiDER.base64,
        ]
        credentials["key_version"] = keyVersion
        return AccountContext(
            accountId: "acct_antom_1", environment: "sandbox", baseURL: baseURL, credentials: credentials,
            notificationURL: notificationURL, options: options)
    }

    static func authorizeRequest(
        method: String = "gcash", amount: Int64 = 1000, currency: String = "PHP", capture: CaptureMode = .automatic,
        customerId: String? = "cust_7", returnURL: String? = "myapp://antom/back",
        credential: StoredCredential? = nil, setup: CredentialSetup? = nil
    ) -> AuthorizeRequest {
        AuthorizeRequest(
            paymentId: "pay_1", attemptId: "att_1", merchantReference: "order-42", amount: amount, currency: currency,
            country: "PH", method: method, captureMode: capture, customerId: customerId, returnURL: returnURL,
            idempotencyKey: "att_1", storedCredential: credential, credentialSetup: setup)
    }

    static let locator = PaymentLocator(attemptId: "att_1", providerPaymentId: paymentId)

    /// The scripted route of a call.
    static func route(_ call: String) -> String {
        "POST " + apiPrefix + call
    }

    /// The path of a call as signed (with the base URL's `/antom` prefix).
    static func signedPath(_ call: String) -> String {
        "/antom" + apiPrefix + call
    }

    /// A `result` member.
    static func result(_ status: String = "S", _ code: String = "SUCCESS") -> String {
        #""result":{"resultCode":"\#(code)","resultStatus":"\#(status)","resultMessage":"m"}"#
    }

    /// An answer signed by Antom's key over the call's path, as the real API answers.
    static func signed(
        _ call: String, _ body: String, key: RSAPrivateKey = antomKey, time: String = responseTime
    ) -> OutboundResult {
        let bytes = Array(body.utf8)
        let content = AntomSigning.content(path: signedPath(call), clientId: clientId, time: time, body: bytes)
        let signature = (try? AntomSigning.sign(content, with: key)) ?? ""
        return OutboundResult(
            kind: .response, status: 200,
            headers: [
                HTTPHeader("Content-Type", "application/json; charset=UTF-8"), HTTPHeader("client-id", clientId),
                HTTPHeader("response-time", time),
                HTTPHeader("signature", "algorithm=RSA256,keyVersion=1,signature=\(signature)"),
            ],
            body: Data(bytes))
    }

    /// An answer without signature headers.
    static func unsigned(_ body: String, status: Int = 200) -> OutboundResult {
        OutboundResult(
            kind: .response, status: status, headers: [HTTPHeader("Content-Type", "application/json")],
            body: Data(body.utf8))
    }

    /// A notification signed by `key` over the notification path.
    static func notification(
        _ body: String, key: RSAPrivateKey = antomKey, clientId: String = clientId,
        time: String = "2025-11-08T11:06:42+00:00", path: String = notificationPath
    ) -> NotificationRequest {
        let bytes = Array(body.utf8)
        let content = AntomSigning.content(path: path, clientId: clientId, time: time, body: bytes)
        let signature = (try? AntomSigning.sign(content, with: key)) ?? ""
        return NotificationRequest(
            method: "POST", path: path,
            headers: [
                HTTPHeader("Content-Type", "application/json"), HTTPHeader("Client-Id", clientId),
                HTTPHeader("Request-Time", time),
                HTTPHeader("Signature", "algorithm=RSA256, keyVersion=1, signature=\(signature)"),
            ],
            body: Data(bytes))
    }

    /// The JSON body of a recorded request.
    static func body(_ request: OutboundRequest?) throws -> JSONValue {
        let body = try #require(request?.body)
        return try JSONDecoder().decode(JSONValue.self, from: body)
    }

    /// The value of a recorded request's header.
    static func header(_ name: String, of request: OutboundRequest?) -> String? {
        request?.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
