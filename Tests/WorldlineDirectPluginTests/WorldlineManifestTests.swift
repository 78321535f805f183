import CSwitchyardPlugin
import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

@Suite struct WorldlineManifestTests {
    @Test func manifestDeclaresFlowsAndCredentials() {
        let manifest = WorldlineDirectProvider.manifest
        #expect(manifest.id == "worldline-direct")
        #expect(manifest.provider == "Worldline Direct")
        #expect(manifest.flows == [.authorize, .complete, .capture, .void, .refund, .sync, .notification])
        #expect(manifest.methods == ["card"])
        #expect(manifest.countries.isEmpty)
        #expect(manifest.currencies.contains("EUR") && manifest.currencies.contains("USD"))
        #expect(manifest.honoursIdempotencyKey && !manifest.usesAccessToken)
        let fields = Dictionary(uniqueKeysWithValues: manifest.credentials.map { ($0.name, $0) })
        #expect(fields["merchant_id"] == CredentialField(name: "merchant_id", secret: false))
        #expect(fields["api_key_id"] == CredentialField(name: "api_key_id", secret: false))
        #expect(fields["secret_api_key"] == CredentialField(name: "secret_api_key", secret: true))
        #expect(fields["webhook_key_id"] == CredentialField(name: "webhook_key_id", secret: false, required: false))
        #expect(fields["webhook_secret"] == CredentialField(name: "webhook_secret", secret: true, required: false))
    }

    @Test func cardsNeedTheEncryptedInputOfOnlinePaymentsKit() throws {
        let card = try #require(WorldlineDirectProvider.manifest.support(for: "card"))
        #expect(!card.storable && card.delayedCapture)
        #expect(card.app?.flow == "encrypted_card" && card.app?.sdk == "OnlinePaymentsKit")
        #expect(card.app?.nextAction == WorldlineDirectMapping.sessionActionType)
        #expect(card.app?.paymentData == [WorldlineDirectMapping.encryptedInputKey])
    }

    @Test func entryExportsTheTableWithTheManifest() throws {
        let table = PluginExport.table(for: WorldlineDirectProvider.self).pointee
        #expect(table.abi_version == UInt32(SWITCHYARD_PLUGIN_ABI_VERSION))
        #expect(table.struct_size == UInt32(MemoryLayout<sy_plugin_table>.size))
        let json = try #require(table.manifest_json)
        let manifest = try PluginJSON.decoder().decode(PluginManifest.self, from: Data(String(cString: json).utf8))
        #expect(manifest == WorldlineDirectProvider.manifest)
        #expect(table.create != nil && table.invoke != nil)
    }

    @Test func missingCredentialIsMisconfiguredWithoutSending() async {
        var account = Fixtures.account()
        account.credentials["secret_api_key"] = nil
        let host = FakeHost()
        await #expect(throws: ProviderError.misconfigured("credential secret_api_key is missing")) {
            try await WorldlineDirectProvider(host: host).authorize(Fixtures.authorizeRequest(), account: account)
        }
        #expect(host.requests.isEmpty)
    }
}
