import Foundation
import Synchronization

/// Builds the C fixture plugins of `Tests/Fixtures/Plugins` with the system C compiler, once per variant.
public enum FixturePlugins {
    /// The repository root, found from this file's path.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static let cache = BuildCache()

    /// The header directory plugins are built against by default: the current plugin ABI header.
    public static let currentInclude = "Sources/CSwitchyardPlugin/include"

    /// The path of `source` (a file of `directory`, relative to the repository root:
    /// `Tests/Fixtures/Plugins` by default) built as a shared object with `defines` against the
    /// `switchyard_plugin.h` of `include` (a directory relative to the repository root: the current
    /// header's by default, another one such as a frozen earlier header), once per process and variant.
    /// Do not modify the file: copy it where it is needed.
    public static func build(
        _ source: String, in directory: String = "Tests/Fixtures/Plugins", defines: [String] = [],
        include: String = currentInclude
    ) throws -> String {
        try cache.build(source: directory + "/" + source, defines: defines, include: include)
    }

    /// The path of the echo plugin built with `defines` (e.g. `FIXTURE_ABI=99`). Do not modify the file:
    /// copy it where it is needed.
    public static func echo(_ defines: [String] = []) throws -> String {
        try cache.build(source: "Tests/Fixtures/Plugins/echo_plugin.c", defines: defines, include: currentInclude)
    }

    /// Copies a fixture build to `directory/name` through a hidden temporary file and a rename, as a
    /// deployment would.
    @discardableResult
    public static func install(_ built: String, in directory: String, as name: String) throws -> String {
        let temporary = directory + "/." + name + ".tmp"
        let target = directory + "/" + name
        try? FileManager.default.removeItem(atPath: temporary)
        try FileManager.default.copyItem(atPath: built, toPath: temporary)
        _ = rename(temporary, target)
        return target
    }

    /// Lowercase hex SHA-256 of a file, computed independently of the code under test (`sha256sum`).
    public static func sha256(of path: String) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    private final class BuildCache: Sendable {
        /// The path of each variant built so far, by source, header directory and defines.
        private let built = Mutex<[String: String]>([:])
        private let directory: String = {
            let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
            // Builds of earlier test processes that are gone are removed; this process's go in its own directory.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
            where name.hasPrefix("switchyard-fixtures-") {
                if let pid = pid_t(name.dropFirst("switchyard-fixtures-".count)), kill(pid, 0) != 0, errno == ESRCH {
                    try? FileManager.default.removeItem(atPath: base + name)
                }
            }
            let path = base + "switchyard-fixtures-\(getpid())"
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }()

        /// Builds under the lock, so each variant is built once and no two builds run at the same time.
        func build(source: String, defines: [String], include: String) throws -> String {
            try built.withLock { built -> String in
                try build(source: source, defines: defines, include: include, into: &built)
            }
        }

        private func build(source: String, defines: [String], include: String, into built: inout [String: String])
            throws -> String
        {
            let key = source + "|" + include + "|" + defines.joined(separator: "|")
            if let path = built[key] { return path }
            let output = directory + "/fixture-\(built.count).so"
            let includePath = repositoryRoot.appendingPathComponent(include).path
            let input = repositoryRoot.appendingPathComponent(source).path
            let arguments =
                ["-shared", "-fPIC", "-I" + includePath] + defines.map { "-D" + $0 } + ["-o", output, input]
            // `cc` where the system has one; the clang shipped with the Swift toolchain otherwise.
            for compiler in ["cc", "clang", "gcc"] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [compiler] + arguments
                try process.run()
                process.waitUntilExit()
                if process.terminationStatus == 0 {
                    built[key] = output
                    return output
                }
            }
            throw FixtureError(message: "no C compiler could build \(source) \(defines) against \(include)")
        }
    }

    public struct FixtureError: Error, CustomStringConvertible {
        var message: String
        public var description: String { message }
    }
}
