import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Private copies of plugin files, each under a name never used before, so that `dlopen` maps a new
/// image for every new or rebuilt file.
enum ShadowCopy {
    private static let directoryPrefix = "switchyard-shadow-"

    /// Makes a fresh mode-0700 directory under the system's temporary directory, named after this
    /// process, after removing those left by processes that are gone.
    static func makePrivateDirectory() throws -> String {
        let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        removeStaleDirectories(in: base)
        var template = Array((base + directoryPrefix + "\(getpid())-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!) }
        guard made != nil else {
            throw CocoaError(.fileWriteUnknown)
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Removes `switchyard-shadow-<pid>-<6 characters>` directories whose process no longer exists.
    /// Copies of a live process are kept: its images are still mapped from them. Anything else under the
    /// temporary directory is left alone, however it is named.
    static func removeStaleDirectories(in base: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names where name.hasPrefix(directoryPrefix) {
            let parts = name.dropFirst(directoryPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 6, !parts[0].isEmpty, parts[0].allSatisfy(\.isASCII),
                parts[0].allSatisfy(\.isNumber), let pid = pid_t(parts[0]), pid > 0
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: base + name)
            }
        }
    }

    /// Writes `contents` to a new file in `directory` and returns its path.
    ///
    /// The name keeps the original's stem and the digest's first 12 characters, plus a random suffix;
    /// the file is created exclusively, so an existing file is never reused.
    static func store(_ contents: Data, named original: String, sha256: String, into directory: String) throws -> String
    {
        let stem = URL(fileURLWithPath: original).deletingPathExtension().lastPathComponent
        for _ in 0..<8 {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let path = directory + "/" + stem + "-" + sha256.prefix(12) + "-" + suffix + ".so"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o500)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw CocoaError(.fileWriteUnknown)
            }
            defer { close(descriptor) }
            let written = contents.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let count = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += count
                }
                return true
            }
            guard written else {
                unlink(path)
                throw CocoaError(.fileWriteUnknown)
            }
            return path
        }
        throw CocoaError(.fileWriteFileExists)
    }
}
