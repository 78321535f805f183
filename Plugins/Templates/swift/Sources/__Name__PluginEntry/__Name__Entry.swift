import __Name__Plugin
import ProviderKit

/// The one symbol Switchyard looks up: the plugin's constant table (ABI version, manifest, entry points).
/// It has no side effects, as it also runs in the host's restricted scanner process.
@_cdecl("switchyard_plugin_entry")
public func switchyardPluginEntry() -> UnsafeRawPointer {
    UnsafeRawPointer(PluginExport.table(for: __Name__Provider.self))
}
