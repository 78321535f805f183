import CSwitchyardPlugin
import Foundation
import ProviderKit

extension PluginLoader {
    /// Starts the live instance of an accepted plugin in a worker process, the last step of a load after
    /// every check: the worker opens the private copy `copy`; nothing of the plugin runs in this process.
    /// Refused `isolation_unavailable` without a worker executable.
    func instantiateInWorker(
        manifest: PluginManifest, file path: String, copy: String, sha256: String, hostServices: any HostServices,
        now: Date, settings: PluginRunSettings
    ) async throws(PluginRefusal) -> LoadedPlugin {
        guard let executable = settings.executable else {
            throw PluginRefusal(
                .isolationUnavailable,
                "plugin \(manifest.id) must run in a worker process and no worker executable is configured")
        }
        let bridge = HostServicesBridge(services: hostServices, pluginID: manifest.id)
        let instance = try await WorkerInstance.start(
            executable: executable, file: copy, bridge: bridge, settings: settings)
        return LoadedPlugin(manifest: manifest, filePath: path, sha256: sha256, loadedAt: now, instance: instance)
    }

    /// Creates the live instance of an accepted plugin in this process, on the plugin's own threads, from
    /// its opened `table` (the plugin's `create` runs on the calling thread).
    func instantiateInProcess(
        table: UnsafePointer<sy_plugin_table>, manifest: PluginManifest, file path: String, sha256: String,
        hostServices: any HostServices, now: Date, settings: PluginRunSettings
    ) throws(PluginRefusal) -> LoadedPlugin {
        let bridge = HostServicesBridge(services: hostServices, pluginID: manifest.id)
        guard let handle = PluginInstanceHandle(table: table.pointee, bridge: bridge) else {
            throw PluginRefusal(.createFailed, "plugin \(manifest.id) did not create an instance")
        }
        let instance = InProcessInstance(handle: handle, pluginID: manifest.id, settings: settings)
        return LoadedPlugin(manifest: manifest, filePath: path, sha256: sha256, loadedAt: now, instance: instance)
    }
}
