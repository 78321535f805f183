import CSwitchyardPlugin
import Foundation
import ProviderKit
import Testing

/// A plugin's credential fields declared as an enum: the manifest's list and typed access by case.
@Suite("Credential fields declared once")
struct CredentialFieldsTests {
    enum Credential: String, CredentialFields {
        case merchantId = "merchant_id"
        case apiKey = "api_key"
        case keyVersion = "key_version"
        case webhookSecret = "webhook_secret"

        var isSecret: Bool { self == .apiKey || self == .webhookSecret }
        var isRequired: Bool { self != .keyVersion }
    }

    enum AllSecret: String, CredentialFields {
        case token

        var isSecret: Bool { true }
    }

    @Test func theManifestListsEveryFieldInDeclarationOrder() {
        #expect(
            Credential.manifestFields == [
                CredentialField(name: "merchant_id", secret: false),
                CredentialField(name: "api_key", secret: true),
                CredentialField(name: "key_version", secret: false, required: false),
                CredentialField(name: "webhook_secret", secret: true),
            ])
        #expect(AllSecret.manifestFields == [CredentialField(name: "token", secret: true, required: true)])
    }

    @Test func valuesAreReadByCase() throws {
        let credentials = ["merchant_id": " M42 ", "api_key": "sk_1", "key_version": "  "]
        #expect(try credentials.require(Credential.apiKey).reveal() == "sk_1")
        #expect(try credentials.requireIdentifier(Credential.merchantId) == "M42")
        #expect(credentials.nonBlank(Credential.keyVersion) == nil)
        #expect(throws: ProviderError.misconfigured("credential api_key is missing")) {
            try [String: String]().require(Credential.apiKey)
        }
    }

    @Test func theManifestInitialiserFillsInTheABIVersionAndDefaults() {
        let manifest = PluginManifest(
            id: "p", provider: "P", version: "2.0.0", flows: [.authorize], methods: ["card"], currencies: ["EUR"],
            honoursIdempotencyKey: true, credentials: Credential.manifestFields)
        var expected = PluginManifest(
            id: "p", version: "2.0.0", provider: "P", abiVersion: UInt32(SWITCHYARD_PLUGIN_ABI_VERSION),
            flows: [.authorize], methods: ["card"], countries: [], currencies: ["EUR"],
            honoursIdempotencyKey: true, usesAccessToken: false, credentials: Credential.manifestFields)
        expected.returnsPromptly = true
        #expect(manifest == expected)
    }
}
