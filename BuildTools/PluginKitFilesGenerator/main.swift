import Foundation

// Writes `SDKFiles.generated`: every `KEY PATH` pair given, the file's bytes in base64 under its key.
let arguments = Array(CommandLine.arguments.dropFirst())
guard let output = arguments.first, arguments.count % 2 == 1 else {
    FileHandle.standardError.write(Data("usage: PluginKitFilesGenerator OUTPUT [KEY PATH]...\n".utf8))
    exit(2)
}
var lines: [String] = []
for index in stride(from: 1, to: arguments.count, by: 2) {
    let (key, path) = (arguments[index], arguments[index + 1])
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
        exit(1)
    }
    lines.append(#"        "\#(key)": "\#(data.base64EncodedString())","#)
}
let source = """
    // Generated from Sources/CSwitchyardPlugin and Plugins/Templates at build time; do not edit.
    extension SDKFiles {
        /// Each embedded file's bytes in base64, by its key (`sdk/…`, `templates/<language>/…`).
        static let generated: [String: String] = [
    \(lines.isEmpty ? "        :" : lines.joined(separator: "\n"))
        ]
    }

    """
guard FileManager.default.createFile(atPath: output, contents: Data(source.utf8)) else {
    FileHandle.standardError.write(Data("cannot write \(output)\n".utf8))
    exit(1)
}
