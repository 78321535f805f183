import Foundation
import ProviderKit
import SwitchyardCore

/// A ``PluginCatalog`` of fixed manifests, as if those plugins were loaded (nothing refused, nothing to
/// reload).
public struct StaticPluginCatalog: PluginCatalog {
    /// What the operator's plugin listing shows: the loaded manifests.
    public struct Snapshot: Encodable, Sendable {
        public var loaded: [PluginManifest]
    }

    let manifests: [PluginManifest]

    public init(_ manifests: [PluginManifest]) {
        self.manifests = manifests
    }

    public func catalog() async -> Snapshot { Snapshot(loaded: manifests) }

    public func loadedCount() async -> Int { manifests.count }

    public func reloadCatalog() async -> Snapshot { Snapshot(loaded: manifests) }

    public func loadedManifest(pluginId: String) async -> PluginManifest? { manifests.first { $0.id == pluginId } }
}
