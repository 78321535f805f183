import Foundation
import ProviderKit

/// The provider plugins as the HTTP surface shows them: what is loaded and refused, readiness, reload.
public protocol PluginCatalog: Sendable {
    /// What the operator sees of the plugins (loaded, quarantined, refused).
    associatedtype Snapshot: Encodable & Sendable
    /// The plugins as they are now.
    func catalog() async -> Snapshot
    /// How many plugins are loaded; the service is ready with at least one.
    func loadedCount() async -> Int
    /// Scans the plugin directory again; the plugins afterwards.
    func reloadCatalog() async -> Snapshot
    /// The manifest of a loaded plugin, by id.
    func loadedManifest(pluginId: String) async -> PluginManifest?
}
