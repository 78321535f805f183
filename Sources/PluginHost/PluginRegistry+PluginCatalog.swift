import ProviderKit
import SwitchyardCore

extension PluginRegistry: PluginCatalog {
    public func catalog() -> PluginsSnapshot { snapshot() }

    public func loadedCount() -> Int { snapshot().loaded.count }

    public func reloadCatalog() async -> PluginsSnapshot {
        _ = await reload()
        return snapshot()
    }

    public func loadedManifest(pluginId: String) -> PluginManifest? { plugin(id: pluginId)?.manifest }
}
