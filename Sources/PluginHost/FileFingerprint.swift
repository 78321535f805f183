import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A cheap identity of a file's current content: size, modification time and inode. A change is
/// confirmed by the file's digest before anything is reloaded.
struct FileFingerprint: Sendable, Equatable {
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    var inode: UInt64

    /// The fingerprint of the regular file at `path`, or `nil` if it is not one.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        size = Int64(info.st_size)
        #if canImport(Darwin)
            modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
            modifiedSeconds = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        inode = UInt64(info.st_ino)
    }

    /// The plugin files (`*.so`, not hidden) in `directory`, with their fingerprints.
    static func scan(_ directory: String) -> [String: FileFingerprint] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [:] }
        var result: [String: FileFingerprint] = [:]
        for name in names where name.hasSuffix(".so") && !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if let fingerprint = FileFingerprint(path: path) {
                result[path] = fingerprint
            }
        }
        return result
    }
}
