import ProviderKit
import Testing

@testable import CitconPlugin

@Suite struct CitconManifestTests {
    @Test func manifestDeclaresTheCitconPlugin() throws {
        let manifest = CitconProvider.manifest
        #expect(manifest.id == "citcon")
        #expect(manifest.provider == "Citcon UPI")
        #expect(manifest.abiVersion == 1)
        #expect(Set(manifest.flows) == [.authorize, .capture, .void, .refund, .sync, .accessToken, .notification])
        #expect(manifest.methods == ["alipay", "wechatpay", "upop", "paypal", "venmo", "card", "cashapp"])
        #expect(manifest.countries.isEmpty)
        for currency in ["USD", "CAD", "CNY", "HKD", "EUR", "GBP", "JPY"] {
            #expect(manifest.currencies.contains(currency))
        }
        #expect(manifest.honoursIdempotencyKey)
        #expect(manifest.usesAccessToken)
        #expect(
            manifest.credentials == [
                CredentialField(name: "private_key", secret: true),
                CredentialField(name: "ipn_secret", secret: true, publicTestValues: ["braintree"]),
            ])
    }

    @Test func everyMethodDeclaresItsSupport() throws {
        let manifest = CitconProvider.manifest
        #expect(manifest.methodSupport?.map(\.method) == manifest.methods)
        for method in manifest.methods {
            let support = try #require(manifest.support(for: method))
            #expect(!support.storable, "\(method)")
            #expect(support.app?.nextAction == "citcon_sdk" && support.app?.sdk == "CPaySDK", "\(method)")
        }
        #expect(manifest.support(for: "card")?.delayedCapture == true)
        #expect(manifest.support(for: "alipay")?.delayedCapture == false)
        #expect(manifest.support(for: "venmo")?.currencies == ["USD"])
        #expect(manifest.support(for: "alipay")?.currencies == manifest.currencies)
    }

    @Test func unsupportedFlowsThrowNotSupported() async {
        let provider = CitconProvider(host: FakeHost())
        await #expect(throws: ProviderError.notSupported(.syncRefund)) {
            _ = try await provider.syncRefund(
                SyncRefundRequest(payment: Fixtures.locator, refundId: "rf_1", providerRefundId: nil),
                account: Fixtures.account()
            )
        }
    }
}
