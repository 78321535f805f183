/// A plugin built with Switchyard: its product (the shared object `lib<product>.so`) and its id.
package struct BundledPlugin: Sendable, Equatable {
    package var product: String
    package var id: String

    package init(product: String, id: String) {
        self.product = product
        self.id = id
    }

    /// The shared object's file name.
    package var fileName: String { "lib\(product).so" }
}

/// The plugins built with Switchyard, listed at build time from the package's plugin products
/// (BuildTools/BundledPluginList), not from the provider emulators.
package enum BundledPlugins {
    /// Every bundled plugin, by id.
    package static var all: [BundledPlugin] { generated }

    /// Their ids.
    package static var ids: [String] { all.map(\.id) }
}
