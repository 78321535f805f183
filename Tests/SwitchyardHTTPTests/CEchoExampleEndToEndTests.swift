import Foundation
import SwitchyardTestSupport
import Testing

/// The plain-C example plugin (`Plugins/Examples/c-echo`), built by the test suite, goes the whole way:
/// scanned, loaded, given an account, and a payment authorised through `POST /v1/payments` with its
/// outbound request sent by the host.
@Suite(.serialized)
struct CEchoExampleEndToEndTests {
    @Test func theCExamplePluginAuthorisesAPaymentEndToEnd() async throws {
        let plugin = try FixturePlugins.build("c_echo.c", in: "Plugins/Examples/c-echo")
        try await TestStack.with(extraPlugins: [(name: "libCEchoPlugin.so", path: plugin)]) { stack in
            let json = try await stack.send(.GET, "/admin/v1/plugins", token: stack.operatorToken).json
            let loaded = json["loaded"] as? [[String: Any]] ?? []
            let echo = try #require(loaded.first { $0["id"] as? String == "c-echo" })
            #expect(echo["flows"] as? [String] == ["authorize", "sync"])

            try await WebhookReceiver.with { receiver in
                let m = try await stack.merchant(
                    name: "C Shop",
                    account: [
                        "plugin": "c-echo", "base_url": receiver.url, "environment": "sandbox",
                        "credentials": ["api_key": "c-echo-key-0123456789"],
                    ],
                    match: ["currencies": ["EUR"], "methods": ["card"]])
                let payment = try await stack.createPayment(
                    m, ["amount": 1500, "currency": "EUR", "country": "FR", "method": "card", "reference": "c-1"])
                #expect(payment["status"] as? String == "authorized", "\(payment)")
                let attempt = (payment["attempts"] as? [[String: Any]])?.first
                #expect((attempt?["provider_payment_id"] as? String)?.hasPrefix("c-echo-") == true, "\(payment)")
                // The plugin's request went out through the host, with the account's credential.
                let delivery = try #require(receiver.deliveries.first)
                #expect(receiver.deliveries.count == 1)
                #expect(delivery.headers["authorization"] == "Bearer c-echo-key-0123456789")
            }
        }
    }
}
