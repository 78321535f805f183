import Foundation

/// Whether a plugin file shares the worker's Swift runtime.
///
/// A Swift plugin runs on the Swift runtime already loaded in its worker (the dynamic linker hands it
/// the loaded `libswiftCore.so`, whatever its `RUNPATH` says), so it must be built by the toolchain the
/// worker was built with. The check reads the file before anything of it runs:
/// - a file that needs no `libswiftCore.so` and defines no Swift runtime symbol is not a Swift plugin
///   (a plugin in C, Rust, …): nothing to check;
/// - a file that defines the runtime itself (built with `-static-stdlib`) would bring a second runtime
///   into the process: refused;
/// - otherwise the toolchain the file names in its `.comment` section (the `swiftlang/llvm-project`
///   commit of the compiler that built it) must be the worker's, and a `libswiftCore.so` its search path
///   finds must be the worker's runtime (the same file, or one with the same bytes).
struct SwiftRuntimeCheck: Sendable {
    /// The runtime the host and its workers run.
    struct Runtime: Sendable, Equatable {
        /// The path of its `libswiftCore.so`, if the runtime is a shared library.
        var library: String?
        /// The toolchain identification, e.g. `swiftlang/llvm-project 11673e6660b2`.
        var toolchain: String?
        /// The SHA-256 of its `libswiftCore.so`.
        var digest: String?

        /// How a message names it.
        var name: String {
            [library, toolchain.map { "toolchain \($0)" }].compactMap { $0 }.joined(separator: ", ")
        }
    }

    /// The worker's runtime.
    var host: Runtime
    /// Reads a file's bytes (a library a plugin's search path names).
    var read: @Sendable (String) -> Data? = { FileManager.default.contents(atPath: $0) }

    /// Symbols only the Swift runtime defines.
    static let runtimeSymbols: Set<String> = [
        "swift_retain", "swift_allocObject", "swift_getTypeByMangledNameInContext",
    ]

    /// Why `image` (read from the plugin file at `path`) must not load, or `nil` when it may.
    func refusal(for image: ELFImage, at path: String) -> String? {
        let needsRuntime = image.needed.contains("libswiftCore.so")
        if !image.definedSymbols.isDisjoint(with: Self.runtimeSymbols) {
            return "the plugin carries a Swift runtime of its own (built with -static-stdlib); the worker runs "
                + "\(host.name): build the plugin with that toolchain, without -static-stdlib"
        }
        guard needsRuntime else { return nil }
        let built = Self.toolchain(in: image.comments)
        let found = runtimeFound(for: image, at: path)
        let foundIsHost = found.map(isHostRuntime) ?? true
        let toolchainDiffers = built != nil && host.toolchain != nil && built != host.toolchain
        guard toolchainDiffers || !foundIsHost else { return nil }
        let foundToolchain = found.flatMap(read).flatMap(ELFImage.init).flatMap { Self.toolchain(in: $0.comments) }
        let plugin = [found, (foundToolchain ?? built).map { "toolchain \($0)" }].compactMap { $0 }.joined(
            separator: ", ")
        return "the plugin is linked against the Swift runtime \(plugin); the worker runs \(host.name): rebuild the "
            + "plugin with the worker's toolchain"
    }

    /// The first `libswiftCore.so` the file's own search path finds (`$ORIGIN` is the file's directory).
    private func runtimeFound(for image: ELFImage, at path: String) -> String? {
        let origin = (path as NSString).deletingLastPathComponent
        for directory in image.searchPaths {
            let expanded = directory.replacingOccurrences(of: "${ORIGIN}", with: origin)
                .replacingOccurrences(of: "$ORIGIN", with: origin)
            let candidate = expanded + "/libswiftCore.so"
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return nil
    }

    private func isHostRuntime(_ candidate: String) -> Bool {
        guard let library = host.library else { return false }
        let resolved = (candidate as NSString).resolvingSymlinksInPath
        if resolved == (library as NSString).resolvingSymlinksInPath { return true }
        guard let digest = host.digest, let data = read(resolved) else { return false }
        return FileDigest.sha256Hex(data) == digest
    }

    /// The `swiftlang/llvm-project <commit>` a `.comment` section names, shortened to 12 digits.
    static func toolchain(in comments: [String]) -> String? {
        for comment in comments {
            guard let range = comment.range(of: "swiftlang/llvm-project") else { continue }
            let rest = comment[range.upperBound...].drop { !$0.isHexDigit }
            let commit = rest.prefix { $0.isHexDigit }
            guard commit.count >= 7 else { continue }
            return "swiftlang/llvm-project \(commit.prefix(12))"
        }
        return nil
    }
}

extension SwiftRuntimeCheck.Runtime {
    /// The runtime of this process: the `libswiftCore.so` it has mapped and the toolchain its executable
    /// names (the server and its workers are built together).
    static let current: SwiftRuntimeCheck.Runtime = {
        // A /proc file reports no size: read it to its end rather than by its size.
        let maps =
            FileHandle(forReadingAtPath: "/proc/self/maps").map {
                String(decoding: $0.readDataToEndOfFile(), as: UTF8.self)
            } ?? ""
        let library = maps.split(separator: "\n").lazy.compactMap { line -> String? in
            guard let slash = line.firstIndex(of: "/") else { return nil }
            let path = String(line[slash...])
            return path.hasSuffix("/libswiftCore.so") ? path : nil
        }.first
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let toolchain = [library, executable].lazy.compactMap { $0 }.compactMap {
            FileManager.default.contents(atPath: $0).flatMap(ELFImage.init)
        }.compactMap { SwiftRuntimeCheck.toolchain(in: $0.comments) }.first
        let digest = library.flatMap { FileManager.default.contents(atPath: $0) }.map(FileDigest.sha256Hex)
        return SwiftRuntimeCheck.Runtime(library: library, toolchain: toolchain, digest: digest)
    }()
}

/// The Swift runtime this process and the plugin workers it starts run on: what a Swift plugin must be
/// built for (`switchyard plugins sdk` writes it to `toolchain.json`).
public struct PluginSwiftRuntime: Sendable, Codable, Equatable {
    /// The Swift language version of the compiler that built this executable, e.g. `6.3`.
    public var swiftVersion: String
    /// The toolchain identification, e.g. `swiftlang/llvm-project 11673e6660b2`.
    public var toolchain: String?
    /// The `libswiftCore.so` mapped in this process.
    public var runtimeLibrary: String?

    /// This process's runtime.
    public static var current: PluginSwiftRuntime {
        let runtime = SwiftRuntimeCheck.Runtime.current
        return PluginSwiftRuntime(
            swiftVersion: compilerVersion, toolchain: runtime.toolchain, runtimeLibrary: runtime.library)
    }

    private static var compilerVersion: String {
        #if compiler(>=7.0)
            return "7.0 or later"
        #elseif compiler(>=6.4)
            return "6.4"
        #elseif compiler(>=6.3)
            return "6.3"
        #elseif compiler(>=6.2)
            return "6.2"
        #elseif compiler(>=6.1)
            return "6.1"
        #else
            return "6.0"
        #endif
    }
}
