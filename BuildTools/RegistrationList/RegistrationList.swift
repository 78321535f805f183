import Foundation
import PackagePlugin

/// Generates the list of provider emulators: every `<Provider>/<Provider>Registration.swift` of the target
/// becomes one entry of `SandboxRegistration.discovered`, so adding a provider's folder is enough.
@main
struct RegistrationList: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let registrations = target.sourceFiles(withSuffix: "Registration.swift").map(\.url).filter { url in
            url.lastPathComponent == url.deletingLastPathComponent().lastPathComponent + "Registration.swift"
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "Registrations+Discovered.swift")
        return [
            .buildCommand(
                displayName: "Listing \(registrations.count) provider registrations",
                executable: try context.tool(named: "RegistrationListGenerator").url,
                arguments: [output.path] + registrations.map(\.path),
                inputFiles: registrations,
                outputFiles: [output])
        ]
    }
}
