import Foundation
import ProviderKit

/// Credential values a provider publishes for its test system (a shared test merchant and its documented
/// key, ``CredentialField/publicTestValues``): anyone can use them, so an account that moves real money
/// must not. Provider accounts are checked when they are created or changed, and `switchyard doctor`
/// checks the ones already stored.
public enum PublicTestCredentials {
    /// The first field, by name, of `credentials` whose value `manifest` declares published for the
    /// provider's test system; nil when there is none. Values compare without surrounding white space.
    public static func field(in credentials: [String: String], manifest: PluginManifest) -> String? {
        for field in manifest.credentials.sorted(by: { $0.name < $1.name }) {
            guard let published = field.publicTestValues, !published.isEmpty,
                let value = credentials[field.name]?.trimmingCharacters(in: .whitespacesAndNewlines)
            else { continue }
            if published.contains(value) { return field.name }
        }
        return nil
    }

    /// `422 credential_is_public_test_value` when an account of `environment` moves real money and names
    /// a published test value; the message names the field, never the value.
    static func refuse(environment: String, credentials: [String: String], manifest: PluginManifest) throws {
        guard Livemode.of(environment: environment) == true,
            let name = field(in: credentials, manifest: manifest)
        else { return }
        throw CoreError(
            .credentialIsPublicTestValue,
            "the credential '\(name)' is a value \(manifest.provider) publishes for its test system; "
                + "an account in environment '\(environment)' must use the credentials issued to the merchant",
            param: "credentials.\(name)")
    }
}
