import Foundation
import ProviderKit
import ProviderTestSupport

@testable import __Name__Plugin

/// This target's scripted host: it answers `METHOD /path` below ``Fixtures/baseURL`` from a table and
/// records every request and log line.
typealias FakeHost = PluginFakeHost<Fixtures>

/// Shared test values. The secrets are distinctive so that any leak is easy to find.
enum Fixtures: PluginTestFixtures {
    static let baseURL = "http://127.0.0.1:9999/__name__"
    static let now = Date(timeIntervalSince1970: 1_762_600_000)
    static let apiKey = "sk_SECRET_api_key_0001"
    static let webhookSecret = "whsec_SECRET_0002"
    static let secrets = [apiKey, webhookSecret]

    static func account() -> AccountContext {
        AccountContext(
            accountId: "acct___name___1", environment: "sandbox", baseURL: baseURL,
            credentials: ["api_key": apiKey, "webhook_secret": webhookSecret],
            notificationURL: "https://switchyard.test/v1/notifications/acct___name___1")
    }

    static func authorizeRequest(capture: CaptureMode = .automatic) -> AuthorizeRequest {
        AuthorizeRequest(
            paymentId: "pay_1", attemptId: "att_1", merchantReference: "order-42", amount: 1250, currency: "USD",
            country: "US", method: "card", captureMode: capture, returnURL: "https://shop.test/back",
            idempotencyKey: "idem_att_1")
    }

    static let locator = PaymentLocator(attemptId: "att_1", providerPaymentId: "pay_123")

    /// A JSON answer with `status`.
    static func json(_ body: String, status: Int = 200) -> OutboundResult {
        OutboundResult(
            kind: .response, status: status, headers: [HTTPHeader("Content-Type", "application/json")],
            body: Data(body.utf8))
    }

    /// A payment object answer.
    static func payment(_ status: String, id: String = "pay_123", extra: String = "") -> OutboundResult {
        json(#"{"id":"\#(id)","status":"\#(status)","reference":"att_1","amount":1250,"currency":"USD"\#(extra)}"#)
    }

    /// A refused request: `{"error":{"code","message"}}`.
    static func error(code: String, message: String, status: Int) -> OutboundResult {
        json(#"{"error":{"code":"\#(code)","message":"\#(message)"}}"#, status: status)
    }

    /// The transport failures and unreadable answers whose outcome is not known.
    static let unknownAnswers: [OutboundResult] = [
        OutboundResult(kind: .noResponse, reason: "connection reset after the request"),
        OutboundResult(kind: .noResponse, reason: "read timeout"),
        json(#"{"error":{"code":"internal","message":"boom"}}"#, status: 500),
        json("", status: 503),
        json("<html>bad gateway</html>", status: 502),
        json("not json", status: 200),
        json(#"{"status":"succeeded"}"#, status: 200),
    ]
}
