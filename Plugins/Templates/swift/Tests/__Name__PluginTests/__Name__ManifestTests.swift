import Foundation
import ProviderKit
import Testing

@testable import __Name__Plugin

@Suite struct __Name__ManifestTests {
    @Test func manifestDeclaresTheFlowsAndSecretCredentials() {
        let manifest = __Name__Provider.manifest
        #expect(manifest.id == "__id__")
        #expect(manifest.abiVersion == PluginManifest.currentABIVersion)
        #expect(Set(manifest.flows) == [.authorize, .sync, .refund, .notification])
        #expect(manifest.honoursIdempotencyKey)
        #expect(!manifest.usesAccessToken)
        #expect(
            manifest.credentials == [
                CredentialField(name: "api_key", secret: true), CredentialField(name: "webhook_secret", secret: true),
            ])
    }

    @Test func exportedTableCarriesTheManifest() throws {
        let table = PluginExport.table(for: __Name__Provider.self).pointee
        let json = try #require(table.manifest_json)
        let manifest = try PluginJSON.decoder().decode(PluginManifest.self, from: Data(String(cString: json).utf8))
        #expect(manifest == __Name__Provider.manifest)
    }
}
