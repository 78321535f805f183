import ArgumentParser
import Foundation

extension CommandSupport {
    /// The ports a listener accepts: 0 (any free one) to 65535.
    package static let portRange = 0...65_535

    /// `port` when it is a TCP port, else a usage error naming where it came from (`source`, e.g.
    /// `--port (or SWITCHYARD_PORT)`), so a typo never binds a truncated port.
    package static func checkedPort(_ port: Int, from source: String) throws -> Int {
        guard portRange.contains(port) else {
            throw ValidationError("\(source) must be a port from 0 to 65535, not \(port)")
        }
        return port
    }

    /// The text of the key file at `path` given by `flag`; a file that cannot be read is a usage error naming
    /// the flag and the file (never the key).
    package static func keyFile(_ path: String, flag: String) throws -> String {
        let resolved = absolute(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
            throw ValidationError("\(flag) \(resolved): no such file")
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: resolved) else {
            throw ValidationError("\(flag) \(resolved): cannot be read (a directory, or no permission)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
