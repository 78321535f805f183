import Foundation
import PluginHost
import SwitchyardTestSupport
import TestWaiting

/// A fresh temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "/switchyard-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes random bytes to `name`.
    func writeGarbage(_ name: String, count: Int = 4096) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
    }
}

/// Lowercase hex SHA-256 of a file, computed independently of the code under test.
func sha256OfFile(_ path: String) throws -> String {
    try FixturePlugins.sha256(of: path)
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    (try? await Poll.until("condition", within: timeout) { await condition() }) != nil
}

/// The built `switchyard`, which runs the plugin scanner processes.
let switchyardExecutable = PluginExecutable(path: BuiltProducts.switchyard)

/// A loader that scans with the built `switchyard`.
func scanningLoader() throws -> PluginLoader {
    try PluginLoader(executable: switchyardExecutable, logger: .quiet)
}
