import CSwitchyardPlugin
import Foundation
import ProviderKit
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsManifestTests {
    @Test func manifestDeclaresFlowsMethodsAndCredentials() {
        let manifest = WorldlineSipsProvider.manifest
        #expect(manifest.id == "worldline-sips" && manifest.provider == "Worldline Sips")
        #expect(
            Set(manifest.flows)
                == [
                    .authorize, .complete, .capture, .void, .refund, .sync, .notification, .vaultingSession,
                    .syncVaulting, .revokeCredential,
                ])
        #expect(manifest.methods == ["card"])
        #expect(manifest.countries.isEmpty)
        #expect(
            Set(manifest.currencies) == ["EUR", "USD", "GBP", "CHF", "JPY", "SEK", "DKK", "NOK", "PLN", "AUD", "CAD"])
        #expect(Set(manifest.currencies) == Set(SipsMapping.currencyCodes.keys))
        #expect(!manifest.honoursIdempotencyKey && !manifest.usesAccessToken)
        #expect(
            manifest.credentials == [
                CredentialField(
                    name: "merchant_id", secret: false,
                    publicTestValues: ["002001000000001", "002001000000002", "002001000000003"]),
                CredentialField(
                    name: "secret_key", secret: true,
                    publicTestValues: ["002001000000001_KEY1", "002001000000002_KEY1", "002001000000003_KEY1"]),
                CredentialField(name: "key_version", secret: false, required: false),
            ])
    }

    @Test func cardsAreStorableAndPlacedWithTheInAppSDK() throws {
        let card = try #require(WorldlineSipsProvider.manifest.support(for: "card"))
        #expect(card.storable && card.delayedCapture)
        #expect(card.app?.nextAction == SipsMapping.orderActionType)
        #expect(card.app?.sessionFields.contains("publicKeyValue") == true)
    }

    @Test func numericCurrencyTable() throws {
        let expected = [
            "EUR": "978", "USD": "840", "GBP": "826", "CHF": "756", "JPY": "392", "SEK": "752", "DKK": "208",
            "NOK": "578", "PLN": "985", "AUD": "036", "CAD": "124",
        ]
        for (currency, code) in expected {
            #expect(try SipsMapping.currencyCode(currency) == code)
            #expect(try SipsMapping.currencyCode(currency.lowercased()) == code)
        }
        #expect(throws: ProviderError.self) { try SipsMapping.currencyCode("PHP") }
    }

    @Test func entryTableCarriesTheManifest() throws {
        let table = PluginExport.table(for: WorldlineSipsProvider.self).pointee
        #expect(table.abi_version == UInt32(SWITCHYARD_PLUGIN_ABI_VERSION))
        #expect(table.struct_size == UInt32(MemoryLayout<sy_plugin_table>.size))
        let json = try #require(table.manifest_json)
        let manifest = try PluginJSON.decoder().decode(PluginManifest.self, from: Data(String(cString: json).utf8))
        #expect(manifest == WorldlineSipsProvider.manifest)
        #expect(table.create != nil && table.invoke != nil)
    }

    @Test func referencesAreAlphanumeric() throws {
        #expect(try SipsMapping.transactionReference(attemptId: Fixtures.attemptId) == Fixtures.reference)
        #expect(try SipsMapping.transactionReference(attemptId: "att-é_1.2") == "att12")
        #expect(throws: ProviderError.self) { try SipsMapping.transactionReference(attemptId: "__") }
        #expect(
            try SipsMapping.transactionReference(
                PaymentLocator(attemptId: Fixtures.attemptId, providerPaymentId: "x_y"))
                == Fixtures.reference)
        #expect(try SipsMapping.merchantWalletId(vaultingId: "vlt_01ab") == "vlt01ab")
        #expect(SipsMapping.orderId("A-b_9") == "A-b_9")
        #expect(SipsMapping.orderId("a/b") == nil)
    }

    @Test func sessionLifetimeIsClamped() {
        #expect(SipsMapping.sessionLifetime(options: [:]) == 900)
        #expect(SipsMapping.sessionLifetime(options: ["session_lifetime_seconds": " 300 "]) == 300)
        #expect(SipsMapping.sessionLifetime(options: ["session_lifetime_seconds": "5"]) == 60)
        #expect(SipsMapping.sessionLifetime(options: ["session_lifetime_seconds": "99999"]) == 3_600)
        #expect(SipsMapping.sessionLifetime(options: ["session_lifetime_seconds": "soon"]) == 900)
    }

    @Test func interfaceVersionsDefaultAndOverride() {
        #expect(SipsMapping.interfaceVersion(.inApp, options: [:]) == "IR_MB_3.0")
        #expect(SipsMapping.interfaceVersion(.cashManagement, options: [:]) == "CR_WS_2.27")
        #expect(SipsMapping.interfaceVersion(.diagnostic, options: [:]) == "DR_WS_2.9")
        #expect(SipsMapping.interfaceVersion(.wallet, options: [:]) == "WR_WS_2.27")
        let options = [
            "interface_version_inapp": "IR_MB_1.3", "interface_version_cash": "CR_WS_2.3",
            "interface_version_diagnostic": "DR_WS_2.1", "interface_version_wallet": " WR_WS_2.1 ",
        ]
        #expect(SipsMapping.interfaceVersion(.inApp, options: options) == "IR_MB_1.3")
        #expect(SipsMapping.interfaceVersion(.cashManagement, options: options) == "CR_WS_2.3")
        #expect(SipsMapping.interfaceVersion(.diagnostic, options: options) == "DR_WS_2.1")
        #expect(SipsMapping.interfaceVersion(.wallet, options: options) == "WR_WS_2.1")
    }

    @Test func trailingSlashInTheBaseURL() async throws {
        let host = FakeHost(routes: [
            Fixtures.route("diagnostic/getTransactionData"): Fixtures.transactionAnswer("CAPTURED")
        ])
        let outcome = try await WorldlineSipsProvider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account(baseURL: Fixtures.baseURL + "/"))
        #expect(host.requests.first?.url == Fixtures.baseURL + "/rs-services/v2/diagnostic/getTransactionData")
        #expect(outcome.kind == .succeeded)
    }

    @Test func unusableCredentialsAreMisconfiguredWithoutSending() async {
        let cases: [(String, String?, String)] = [
            ("merchant_id", nil, "credential merchant_id is missing"),
            ("merchant_id", " ", "credential merchant_id is missing"),
            ("secret_key", nil, "credential secret_key is missing"),
            ("key_version", "v2", "credential key_version is not an integer"),
            ("key_version", "-1", "credential key_version is not an integer"),
        ]
        for (field, value, message) in cases {
            var account = Fixtures.account()
            account.credentials[field] = value
            let host = FakeHost()
            await #expect(throws: ProviderError.misconfigured(message)) {
                try await WorldlineSipsProvider(host: host).sync(
                    SyncRequest(payment: Fixtures.locator), account: account)
            }
            #expect(host.requests.isEmpty)
        }
        let host = FakeHost()
        await #expect(throws: ProviderError.misconfigured("the account's base URL is not an absolute http(s) URL")) {
            try await WorldlineSipsProvider(host: host).sync(
                SyncRequest(payment: Fixtures.locator), account: Fixtures.account(baseURL: "sips.test"))
        }
        #expect(host.requests.isEmpty)
    }

    @Test func syncRefundIsNotSupported() async {
        await #expect(throws: ProviderError.notSupported(.syncRefund)) {
            try await WorldlineSipsProvider(host: FakeHost()).syncRefund(
                SyncRefundRequest(payment: Fixtures.locator, refundId: "r", providerRefundId: nil),
                account: Fixtures.account())
        }
    }
}
