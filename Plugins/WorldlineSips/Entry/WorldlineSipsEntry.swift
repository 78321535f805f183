import ProviderKit
import WorldlineSipsPlugin

@_cdecl("switchyard_plugin_entry")
public func switchyardPluginEntry() -> UnsafeRawPointer {
    UnsafeRawPointer(PluginExport.table(for: WorldlineSipsProvider.self))
}
