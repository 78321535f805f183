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
        switch settings.isolation(for: manifest.id) {
        case .process:
            guard let executable = settings.executable else {
                throw PluginRefusal(
                    .isolationUnavailable,
                    "plugin \(manifest.id) must run in a worker process and no worker executable is configured")
            }
            guard let image = copy ?? table.flatMap(Self.imagePath(of:)) else {
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

    /// The file of the mapped image whose code `table.create` is (the private copy that was opened),
    /// from `/proc/self/maps`. The code, not the table: a table may be built on the heap at run time.
    private static func imagePath(of table: UnsafePointer<sy_plugin_table>) -> String? {
        guard let create = table.pointee.create else { return nil }
        let address = UInt(bitPattern: unsafeBitCast(create, to: UnsafeRawPointer.self))
        // Read with stdio: /proc files report a size of 0, which whole-file readers take at its word.
        guard let file = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(file) }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) > 0, let buffer {
            let line = String(cString: buffer).trimmingCharacters(in: .newlines)
            // start-end perms offset dev inode path
            guard let range = line.split(separator: " ").first, let dash = range.firstIndex(of: "-"),
                let start = UInt(range[..<dash], radix: 16),
                let end = UInt(range[range.index(after: dash)...], radix: 16),
                (start..<end).contains(address)
            else { continue }
            return line.firstIndex(of: "/").map { String(line[$0...]) }
        }
        return nil
    }
}
