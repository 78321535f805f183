import Foundation

// Writes `SandboxRegistration.discovered`: one `.<provider>` entry per registration file given, where
// `<Provider>/<Provider>Registration.swift` declares `static let <provider>` (the folder name with a lower-case
// first letter).
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: RegistrationListGenerator OUTPUT REGISTRATION...\n".utf8))
    exit(2)
}
let members = arguments.dropFirst().map { path -> String in
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
    return folder.prefix(1).lowercased() + folder.dropFirst()
}.sorted()
let source = """
    // Generated from the provider folders at build time; do not edit.
    extension SandboxRegistration {
        /// Every provider folder's registration, by folder name.
        static let discovered: [SandboxRegistration] = [\(members.map { "." + $0 }.joined(separator: ", "))]
    }

    """
let data = Data(source.utf8)
// Leaves an unchanged file alone so its dependents are not rebuilt.
if (try? Data(contentsOf: URL(fileURLWithPath: output))) != data {
    do {
        try data.write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
        FileHandle.standardError.write(Data("cannot write \(output): \(error)\n".utf8))
        exit(1)
    }
}
