import Foundation

// Writes `BundledPlugins.generated`: one entry per plugin product given as `PRODUCT MANIFEST-FILE`, with the
// id the manifest file declares (its first `id: "..."`).
let arguments = Array(CommandLine.arguments.dropFirst())
guard let output = arguments.first, arguments.count % 2 == 1 else {
    FileHandle.standardError.write(Data("usage: BundledPluginListGenerator OUTPUT [PRODUCT MANIFEST]...\n".utf8))
    exit(2)
}
var entries: [(product: String, id: String)] = []
for index in stride(from: 1, to: arguments.count, by: 2) {
    let (product, path) = (arguments[index], arguments[index + 1])
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
        let match = text.firstMatch(of: /\bid: "([a-z0-9][a-z0-9-]*)"/)
    else {
        FileHandle.standardError.write(Data("\(path): no plugin id (id: \"...\") found for \(product)\n".utf8))
        exit(1)
    }
    entries.append((product, String(match.1)))
}
let lines = entries.sorted { $0.id < $1.id }.map {
    #"        BundledPlugin(product: "\#($0.product)", id: "\#($0.id)"),"#
}
let source = """
    // Generated from the plugin products at build time; do not edit.
    extension BundledPlugins {
        /// Every plugin product of the package, by id.
        static let generated: [BundledPlugin] = [
    \(lines.joined(separator: "\n"))
        ]
    }

    """
// The build runs this only when a manifest file or this tool changed, so the file is written every time.
guard FileManager.default.createFile(atPath: output, contents: Data(source.utf8)) else {
    FileHandle.standardError.write(Data("cannot write \(output)\n".utf8))
    exit(1)
}
