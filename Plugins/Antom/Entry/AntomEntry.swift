import AntomPlugin
import ProviderKit

@_cdecl("switchyard_plugin_entry")
public func switchyardPluginEntry() -> UnsafeRawPointer {
    UnsafeRawPointer(PluginExport.table(for: AntomProvider.self))
}
