import ArgumentParser
import Foundation
import PluginHost
import SwitchyardCrypto

/// Reads plugin files for pinning: their SHA-256 and, through the scanner, their manifest's id and version.
enum PluginPin {
    /// The lowercase hex SHA-256 of a file.
    static func digest(of file: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ValidationError("cannot read \(file)")
        }
        return Hex.encode(SHA2.sha256([UInt8](data)))
    }

    /// The pinned `plugins` section (`mode` `pinned`, one entry per id with its version and digests)
    /// for the `.so` files of `directory`, sorted by id. Files the scanner refuses are reported to
    /// `note` and left out.
    static func section(
        directory: String, scanner: PluginScanner, note: (String) -> Void
    ) async throws -> [String: Any] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ValidationError("cannot list \(directory)")
        }
        var entries: [String: (version: String, digests: [String])] = [:]
        for name in names.sorted() where name.hasSuffix(".so") {
            let path = (directory as NSString).appendingPathComponent(name)
            let id: String
            let version: String
            do {
                guard let manifest = try await scanner.scan(path).manifest else { continue }
                (id, version) = (manifest.id, manifest.version)
            } catch {
                note("skipped \(name): \(error.code.rawValue) (\(error.reason))")
                continue
            }
            let digest = try digest(of: path)
            var entry = entries[id] ?? (version, [])
            if !entry.digests.contains(digest) { entry.digests.append(digest) }
            entries[id] = entry
        }
        guard !entries.isEmpty else { throw ValidationError("no plugin found in \(directory)") }
        let allowed: [[String: Any]] = entries.keys.sorted().map { id in
            ["id": id, "version": entries[id]!.version, "sha256": entries[id]!.digests]
        }
        return ["mode": "pinned", "allowed": allowed]
    }
}
