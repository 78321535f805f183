import CSwitchyardPlugin
import Foundation
import ProviderKit

extension PluginLoader {
    /// Creates the live instance of an accepted plugin: the last step of a load, after every check.
    ///
    /// Under a registry's ``PluginRunSettings`` the policy chooses where it runs: in a worker process
    /// (`process`, the default; refused `isolation_unavailable` without a worker executable) that opens
    /// the private copy `copy` (found from `table` when not given), or in process on the plugin's own
    /// threads (`in_process`, and any load outside a registry).
    func instantiate(
        table: UnsafePointer<sy_plugin_table>?, manifest: PluginManifest, file path: String, copy: String? = nil,
        sha256: String, hostServices: any HostServices, now: Date
    ) throws(PluginRefusal) -> LoadedPlugin {
        let settings = PluginRunSettings.current ?? PluginRunSettings()
        let bridge = HostServicesBridge(services: hostServices, pluginID: manifest.id)
        let instance: any PluginInstance
        switch Self.isolation(of: manifest.id) {
        case .process:
            guard let executable = settings.executable else {
                throw PluginRefusal(
                    .isolationUnavailable,
                    "plugin \(manifest.id) must run in a worker process and no worker executable is configured")
            }
            guard let image = copy else {
                throw PluginRefusal(.createFailed, "the private copy of plugin \(manifest.id) cannot be found")
            }
            instance = try WorkerInstance(executable: executable, file: image, bridge: bridge, settings: settings)
        case .inProcess:
            guard let table, let handle = PluginInstanceHandle(table: table.pointee, bridge: bridge) else {
                throw PluginRefusal(.createFailed, "plugin \(manifest.id) did not create an instance")
            }
            instance = InProcessInstance(handle: handle, pluginID: manifest.id, settings: settings)
        }
        return LoadedPlugin(manifest: manifest, filePath: path, sha256: sha256, loadedAt: now, instance: instance)
    }

    /// Where the plugin `id` runs under the current run settings (in process outside a registry).
    static func isolation(of id: String) -> PluginIsolation {
        (PluginRunSettings.current ?? PluginRunSettings()).isolation(for: id)
    }
}
