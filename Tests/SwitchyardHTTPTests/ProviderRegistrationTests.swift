import Foundation
import PluginHost
import ProviderSandbox
import Testing

/// The registrations against the built plugins: each names a plugin the stack loads, and its demo account's
/// credentials are the fields that plugin's manifest declares.
@Suite struct ProviderRegistrationTests {
    @Test func everyRegisteredEmulatorIsServedByALoadedPluginWhoseManifestAcceptsItsDemoCredentials() async throws {
        let secrets = SandboxDemoSecrets { _, make in make() }
        try await TestStack.with { stack in
            for registration in SandboxRegistration.all {
                let manifest = try #require(
                    await stack.runtime.gateway.manifest(pluginId: registration.pluginID),
                    "\(registration.pluginLibrary) did not load as \(registration.pluginID)")
                #expect(manifest.id == registration.pluginID)
                let fields = manifest.credentials
                let demo = try registration.demo(secrets: secrets)
                #expect(
                    demo.credentialMismatch(
                        fields: fields.map(\.name), required: fields.filter(\.required).map(\.name)) == nil,
                    "\(registration.name)")
                // The emulator answers at the path the demo account's base URL names.
                let faults = try await stack.send(.GET, "/_sandbox/\(registration.name)/faults", base: stack.sandboxURL)
                #expect(faults.status == 200, "\(registration.name)")
            }
        }
    }
}
