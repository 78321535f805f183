import CSwitchyardPlugin
import Foundation
import ProviderKit

extension PluginLoader {
    /// Creates the live instance of an accepted plugin: the last step of a load, after every check.
    func instantiate(
        table: UnsafePointer<sy_plugin_table>, manifest: PluginManifest, file path: String, sha256: String,
        hostServices: any HostServices, now: Date
    ) throws(PluginRefusal) -> LoadedPlugin {
        let bridge = HostServicesBridge(services: hostServices, pluginID: manifest.id)
        guard let handle = PluginInstanceHandle(table: table.pointee, bridge: bridge) else {
            throw PluginRefusal(.createFailed, "plugin \(manifest.id) did not create an instance")
        }
        return LoadedPlugin(manifest: manifest, filePath: path, sha256: sha256, loadedAt: now, handle: handle)
    }
}
