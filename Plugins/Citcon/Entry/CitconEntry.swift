import CitconPlugin
import ProviderKit

@_cdecl("switchyard_plugin_entry")
public func switchyardPluginEntry() -> UnsafeRawPointer {
    UnsafeRawPointer(PluginExport.table(for: CitconProvider.self))
}
