import ProviderKit
import WorldlineDirectPlugin

@_cdecl("switchyard_plugin_entry")
public func switchyardPluginEntry() -> UnsafeRawPointer {
    UnsafeRawPointer(PluginExport.table(for: WorldlineDirectProvider.self))
}
