import CSwitchyardPlugin
import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

@Suite struct AntomManifestTests {
    @Test func manifestDeclaresFlowsMethodsAndCredentials() {
        let manifest = AntomProvider.manifest
        #expect(manifest.id == "antom" && manifest.provider == "Antom")
        #expect(
            Set(manifest.flows)
                == [
                    .authorize, .capture, .void, .refund, .sync, .syncRefund, .notification, .vaultingSession,
                    .syncVaulting,
                ])
        #expect(manifest.methods.contains("card") && manifest.methods.contains("gcash"))
        #expect(manifest.methods.contains("alipay_cn") && manifest.methods.contains("kakaopay"))
        #expect(manifest.methods.allSatisfy { $0 == $0.lowercased() })
        #expect(manifest.countries.isEmpty)
        #expect(
            Set(manifest.currencies)
                == ["USD", "EUR", "GBP", "HKD", "CNY", "PHP", "IDR", "MYR", "THB", "KRW", "SGD", "JPY", "AUD"])
        #expect(manifest.honoursIdempotencyKey && !manifest.usesAccessToken)
        let fields = Dictionary(uniqueKeysWithValues: manifest.credentials.map { ($0.name, $0) })
        #expect(fields.count == 4)
        #expect(fields["client_id"] == CredentialField(name: "client_id", secret: false))
        #expect(fields["private_key"] == CredentialField(name: "private_key", secret: true))
        #expect(fields["antom_public_key"] == CredentialField(name: "antom_public_key", secret: false))
        #expect(fields["key_version"] == CredentialField(name: "key_version", secret: false, required: false))
    }

    @Test func everyMethodDeclaresItsSupport() throws {
        let manifest = AntomProvider.manifest
        #expect(Set(manifest.methodSupport?.map(\.method) ?? []) == Set(manifest.methods))
        let card = try #require(manifest.support(for: "card"))
        #expect(card.storable && card.delayedCapture)
        #expect(card.app?.nextAction == AntomMapping.vaultingSessionActionType && card.app?.sdk == "AMSVaulting")
        let gcash = try #require(manifest.support(for: "gcash"))
        #expect(gcash.storable && !gcash.delayedCapture)
        #expect(gcash.currencies == ["PHP"])
        #expect(gcash.app?.nextAction == AntomMapping.paymentSessionActionType && gcash.app?.sdk == "AMSEasyPay")
        #expect(manifest.support(for: "alipay_cn")?.currencies == manifest.currencies)
    }

    @Test func walletMethodsMapToAntomTypes() {
        #expect(AntomMapping.paymentMethodType("alipay_cn") == "ALIPAY_CN")
        #expect(AntomMapping.paymentMethodType("truemoney") == "TRUEMONEY")
    }

    @Test func entryTableCarriesTheManifest() throws {
        let table = PluginExport.table(for: AntomProvider.self).pointee
        #expect(table.abi_version == UInt32(SWITCHYARD_PLUGIN_ABI_VERSION))
        #expect(table.struct_size == UInt32(MemoryLayout<sy_plugin_table>.size))
        let json = try #require(table.manifest_json)
        let manifest = try PluginJSON.decoder().decode(PluginManifest.self, from: Data(String(cString: json).utf8))
        #expect(manifest == AntomProvider.manifest)
        #expect(table.create != nil && table.invoke != nil)
    }

    @Test func bareBase64PrivateKeyWorksLikePEM() async throws {
        let host = FakeHost()
        _ = try await AntomProvider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account(privateKey: Fixtures.merchantKeyBase64))
        let request = try #require(host.requests.first)
        let content = AntomSigning.content(
            path: Fixtures.signedPath("payments/inquiryPayment"), clientId: Fixtures.clientId, time: "1762600000000",
            body: Array(try #require(request.body)))
        let header = try #require(Fixtures.header("signature", of: request))
        #expect(AntomSigning.verify(content, headerValue: header, key: Fixtures.merchantKey.publicKey))
    }

    @Test func liveClientIdsUseTheLivePath() async throws {
        let host = FakeHost(baseURL: "https://open-na-global.alipay.com", now: Fixtures.now)
        _ = try await AntomProvider(host: host).sync(
            SyncRequest(payment: Fixtures.locator),
            account: Fixtures.account(baseURL: "https://open-na-global.alipay.com", clientId: "5X00000000000000"))
        #expect(host.requests.first?.url == "https://open-na-global.alipay.com/ams/api/v1/payments/inquiryPayment")
    }

    @Test func unusableCredentialsAreMisconfiguredWithoutSending() async {
        let cases: [(String, String?, String)] = [
            ("client_id", nil, "credential client_id is missing"),
            ("private_key", nil, "credential private_key is missing"),
            ("private_key", "  ", "credential private_key is missing"),
            ("private_key", "bm90IGEga2V5", "credential private_key is not a readable RSA private key"),
            ("antom_public_key", nil, "credential antom_public_key is missing"),
            ("antom_public_key", "AAAA", "credential antom_public_key is not a readable RSA public key"),
        ]
        for (field, value, message) in cases {
            var account = Fixtures.account()
            account.credentials[field] = value
            let host = FakeHost()
            await #expect(throws: ProviderError.misconfigured(message)) {
                try await AntomProvider(host: host).sync(SyncRequest(payment: Fixtures.locator), account: account)
            }
            #expect(host.requests.isEmpty)
        }
        let host = FakeHost()
        await #expect(throws: ProviderError.misconfigured("the account's base URL is not an absolute http(s) URL")) {
            try await AntomProvider(host: host).sync(
                SyncRequest(payment: Fixtures.locator), account: Fixtures.account(baseURL: "antom.test"))
        }
        #expect(host.requests.isEmpty)
    }
}
