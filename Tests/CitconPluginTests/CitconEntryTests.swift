import CSwitchyardPlugin
import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

@Suite struct CitconEntryTests {
    @Test func entryExportsTheTableWithTheManifest() throws {
        let table = PluginExport.table(for: CitconProvider.self).pointee
        #expect(table.abi_version == UInt32(SWITCHYARD_PLUGIN_ABI_VERSION))
        #expect(table.struct_size == UInt32(MemoryLayout<sy_plugin_table>.size))
        let json = try #require(table.manifest_json)
        let manifest = try PluginJSON.decoder().decode(PluginManifest.self, from: Data(String(cString: json).utf8))
        #expect(manifest == CitconProvider.manifest)
        #expect(table.create != nil && table.invoke != nil)
    }
}
