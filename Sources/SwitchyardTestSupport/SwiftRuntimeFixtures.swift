import Foundation

/// Plugin files that would run on another Swift runtime than the host's, built from the C fixtures of
/// `Tests/Fixtures/Plugins/SwiftRuntime`: a stand-in for another toolchain's `libswiftCore.so`, a plugin
/// linked against it, a plugin carrying a runtime of its own.
public enum SwiftRuntimeFixtures {
    /// The fixtures' folder, relative to the repository.
    public static let folder = "Tests/Fixtures/Plugins/SwiftRuntime"

    /// A new directory holding a stand-in for another toolchain's `libswiftCore.so`.
    public static func otherToolchain() throws -> String {
        let directory = try temporaryDirectory()
        _ = try compile(
            into: directory + "/libswiftCore.so", sources: [folder + "/other_libswiftCore.c"],
            flags: ["-Wl,-soname,libswiftCore.so"])
        return directory
    }

    /// The echo plugin linked against the stand-in runtime in `directory` (its RUNPATH names it) and naming
    /// the other toolchain in its `.comment` section.
    public static func pluginOfOtherToolchain(in directory: String) throws -> String {
        try compile(
            into: directory + "/libOther.so",
            sources: ["Tests/Fixtures/Plugins/echo_plugin.c", folder + "/other_toolchain.c"],
            flags: ["-L" + directory, "-Wl,--no-as-needed", "-lswiftCore", "-Wl,-rpath," + directory])
    }

    /// A new, empty temporary directory.
    public static func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "/switchyard-runtime-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Compiles C `sources` (relative to the repository) with the plugin header into the shared object
    /// `output`.
    public static func compile(into output: String, sources: [String], flags: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let include = FixturePlugins.repositoryRoot.appendingPathComponent("Sources/CSwitchyardPlugin/include").path
        process.arguments =
            ["cc", "-shared", "-fPIC", "-I" + include, "-o", output]
            + sources.map { FixturePlugins.repositoryRoot.appendingPathComponent($0).path } + flags
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CompileFailure(output: output) }
        return output
    }

    /// A fixture that did not compile.
    public struct CompileFailure: Error, CustomStringConvertible {
        public var output: String
        public var description: String { "cc could not build \(output)" }
    }
}
