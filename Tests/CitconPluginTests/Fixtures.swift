import Foundation
import ProviderKit
import ProviderTestSupport
import Testing

@testable import CitconPlugin

/// This target's scripted host.
typealias FakeHost = PluginFakeHost<Fixtures>

/// Shared test values. The secrets are distinctive so that any leak is easy to find.
enum Fixtures: PluginTestFixtures {
    static let baseURL = "http://127.0.0.1:9999/citcon"
    static let now = Date(timeIntervalSince1970: 1_762_600_000)
    static let privateKey = "pk_SECRET_private_key_0001"
    static let ipnSecret = "ipn_SECRET_0002"
    static let serverToken = "UPI_server_SECRET_token_0003"
    static let clientToken = "UPI_client_SECRET_token_0004"
    static let secrets = [privateKey, ipnSecret, serverToken, clientToken]

    static func account(token: String? = serverToken) -> AccountContext {
        AccountContext(
            accountId: "acct_citcon_1", environment: "sandbox", baseURL: baseURL,
            credentials: ["private_key": privateKey, "ipn_secret": ipnSecret], accessToken: token,
            notificationURL: "https://switchyard.test/notifications/acct_citcon_1"
        )
    }

    static func authorizeRequest(
        capture: CaptureMode = .automatic, returnURL: String? = "https://shop.test/back"
    )
        -> AuthorizeRequest
    {
        AuthorizeRequest(
            paymentId: "pay_1", attemptId: "att_1", merchantReference: "order-42", amount: 1250, currency: "USD",
            country: "US", method: "alipay", captureMode: capture, returnURL: returnURL, idempotencyKey: "att_1"
        )
    }

    static let locator = PaymentLocator(attemptId: "att_1", providerPaymentId: "2025110912345678901234")

    /// A Citcon `success` envelope around `data` (a JSON object literal).
    static func success(_ data: String, status: Int = 200) -> OutboundResult {
        OutboundResult(
            kind: .response, status: status, headers: [HTTPHeader("Content-Type", "application/json")],
            body: Data(#"{"status":"success","app":"citcon_upi","version":"v1.0.0","data":\#(data)}"#.utf8)
        )
    }

    /// A Citcon `fail` envelope.
    static func fail(code: String, message: String, status: Int = 400) -> OutboundResult {
        let data = #"{"code":"\#(code)","message":"\#(message)"}"#
        return OutboundResult(
            kind: .response, status: status, headers: [HTTPHeader("Content-Type", "application/json")],
            body: Data(#"{"status":"fail","app":"citcon_upi","version":"v1.0.0","data":\#(data)}"#.utf8)
        )
    }

    static func tokenData(_ token: String, expiry: Int64) -> String {
        #"{"access_token":"\#(token)","token_type":"server","expiry":\#(expiry),"permission":["charge"]}"#
    }

    static let chargeData = """
        {"object":"charge","id":"2025110912345678901234","charge_token":"0123456789abcdef0123456789abcdef",\
        "reference":"att_1","amount":1250,"currency":"USD","country":"US","status":"initiated",\
        "auto_capture":true,"time_created":1762600000,"expiry":1762601800}
        """

    /// The JSON body of a recorded request.
    static func json(_ request: OutboundRequest?) throws -> JSONValue {
        let body = try #require(request?.body)
        return try JSONDecoder().decode(JSONValue.self, from: body)
    }
}
