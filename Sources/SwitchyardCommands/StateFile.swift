import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Small state files of the server (keys, passwords, tokens, demo.json), readable by the owner only
/// from the moment they exist.
package enum StateFile {
    /// Reads a secret file, creating it with `make()` when missing.
    package static func secret(at path: String, make: () -> String) throws -> String {
        if let existing = try? String(contentsOfFile: path, encoding: .utf8) {
            let trimmed = existing.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { return trimmed }
        }
        let value = make()
        try write(value + "\n", to: path)
        return value
    }

    /// Writes a file atomically: a new temporary file opened with mode 0600 (never wider, whatever the
    /// umask), then renamed over `path`.
    package static func write(_ text: String, to path: String) throws {
        let temporary = path + ".\(getpid()).tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { break }
            offset += written
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard offset == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Creates a directory (and its missing parents) that only the owner may list: mode 0700, or 0711
    /// when running as root, because the embedded cluster's server then runs as the `postgres` user and
    /// must traverse it.
    package static func makePrivateDirectory(_ path: String) throws {
        if FileManager.default.fileExists(atPath: path) { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        guard mkdir(path, geteuid() == 0 ? 0o711 : 0o700) == 0 || errno == EEXIST else {
            throw ValidationError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }
}
