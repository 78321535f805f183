import Foundation
import ProviderKit
import ProviderTestSupport
import Testing

@testable import WorldlineDirectPlugin

/// This target's scripted host.
typealias FakeHost = PluginFakeHost<Fixtures>

/// Shared test values. The secrets are distinctive so that any leak is easy to find.
enum Fixtures: PluginTestFixtures {
    static let baseURL = "http://127.0.0.1:9999"
    static let merchantId = "MERCH1"
    static let apiKeyId = "KEYID123"
    static let secretApiKey = "secret_SECRET_api_key_0001"
    static let webhookKeyId = "whk-1"
    static let webhookSecret = "whsec_SECRET_0002"
    static let secrets = [secretApiKey, webhookSecret]
    /// 2025-11-08T11:06:40Z.
    static let now = Date(timeIntervalSince1970: 1_762_600_000)

    static func account(options: [String: String] = [:], webhookKeyId: String? = webhookKeyId) -> AccountContext {
        var credentials = [
            "merchant_id": merchantId, "api_key_id": apiKeyId, "secret_api_key": secretApiKey,
            "webhook_secret": webhookSecret,
        ]
        credentials["webhook_key_id"] = webhookKeyId
        return AccountContext(
            accountId: "acct_wl_1", environment: "sandbox", baseURL: baseURL, credentials: credentials,
            notificationURL: "https://switchyard.test/notifications/acct_wl_1", options: options
        )
    }

    static func authorizeRequest() -> AuthorizeRequest {
        AuthorizeRequest(
            paymentId: "pay_1", attemptId: "att_1", merchantReference: "order-42", amount: 1250, currency: "EUR",
            country: "FR", method: "card", captureMode: .automatic, returnURL: "https://shop.test/back",
            idempotencyKey: "att_1"
        )
    }

    static func completeRequest(
        capture: CaptureMode = .automatic, input: String? = "eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d",
        expiresAt: Int64? = 1_762_600_000 + 600
    ) -> CompleteRequest {
        var data: [String: JSONValue] = [:]
        data["encrypted_customer_input"] = input.map(JSONValue.string)
        var session: [String: JSONValue] = ["clientSessionId": .string("cs_1")]
        session["expires_at"] = expiresAt.map(JSONValue.integer)
        return CompleteRequest(
            payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil), operationId: "op_complete_1",
            merchantReference: "order-42", amount: 1250, currency: "EUR", country: "FR", method: "card",
            captureMode: capture, returnURL: "https://shop.test/back", paymentData: data, session: session
        )
    }

    static let paymentId = "3066019730_0"
    static let locator = PaymentLocator(attemptId: "att_1", providerPaymentId: paymentId)

    /// A JSON answer.
    static func json(_ body: String, status: Int = 200) -> OutboundResult {
        OutboundResult(
            kind: .response, status: status, headers: [HTTPHeader("Content-Type", "application/json")],
            body: Data(body.utf8))
    }

    /// A payment object literal.
    static func payment(status: String, code: Int, id: String = paymentId, extra: String = "") -> String {
        #"{"id":"\#(id)","status":"\#(status)","statusOutput":{"statusCode":\#(code),"isAuthorized":false}\#(extra),"#
            + #""paymentOutput":{"amountOfMoney":{"amount":1250,"currencyCode":"EUR"},"#
            + #""references":{"merchantReference":"order-42"}}}"#
    }

    /// An error body with one error.
    static func error(code: String, retriable: Bool = false, http: Int = 400, extra: String = "") -> String {
        #"{"errorId":"e-1","errors":[{"errorCode":"\#(code)","category":"DIRECT_PLATFORM_ERROR","#
            + #""httpStatusCode":\#(http),"id":"X","message":"m","retriable":\#(retriable)}]\#(extra)}"#
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
