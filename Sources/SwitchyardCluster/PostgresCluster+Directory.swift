import Foundation
import SwitchyardStore

extension PostgresCluster {
    /// Creates the data directory (mode 0700) and, when we are root, hands it to the `postgres` user.
    ///
    /// As root, first checks that the `postgres` user can traverse the directory's nearest existing
    /// ancestor; a directory under an unreachable path such as `/root` is refused before anything is made.
    func prepareDataDirectory() throws {
        let fileManager = FileManager.default
        var missing: [String] = []
        var existing = dataDirectory
        while !fileManager.fileExists(atPath: existing) {
            missing.insert(existing, at: 0)
            existing = Self.parent(of: existing)
        }
        var owner: (uid: uid_t, gid: gid_t)?
        if PGProcess.isRoot {
            guard let user = getpwnam(PGProcess.serverUser) else {
                throw PostgresClusterError(
                    code: .unusableDirectory,
                    message: "running as root needs the '\(PGProcess.serverUser)' system user to own the cluster")
            }
            owner = (user.pointee.pw_uid, user.pointee.pw_gid)
            let mustTraverse = missing.isEmpty ? Self.parent(of: dataDirectory) : existing
            try checkServerUserCanTraverse(mustTraverse)
        }
        do {
            try fileManager.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw PostgresClusterError(
                code: .unusableDirectory, message: "cannot create \(dataDirectory): \(error.localizedDescription)")
        }
        if let owner {
            for path in Set(missing + [dataDirectory]) where chown(path, owner.uid, owner.gid) != 0 {
                throw PostgresClusterError(
                    code: .unusableDirectory, message: "cannot give \(path) to the '\(PGProcess.serverUser)' user")
            }
        }
        chmod(dataDirectory, 0o700)
    }

    /// Writes the superuser password to a file only `initdb` reads; the caller removes it.
    func writePasswordFile() throws -> String {
        let directory = PGProcess.isRoot ? Self.parent(of: dataDirectory) : NSTemporaryDirectory()
        let path = (directory as NSString).appendingPathComponent(".switchyard-initdb-\(UUID().uuidString)")
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw PostgresClusterError(
                code: .unusableDirectory, message: "cannot write a temporary file in \(directory)")
        }
        defer { close(fd) }
        let bytes = Array((password + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if PGProcess.isRoot, let user = getpwnam(PGProcess.serverUser) {
            fchown(fd, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        guard written == bytes.count else {
            unlink(path)
            throw PostgresClusterError(
                code: .unusableDirectory, message: "cannot write a temporary file in \(directory)")
        }
        return path
    }

    private func checkServerUserCanTraverse(_ path: String) throws {
        let output = try PGProcess.run("/usr/bin/test", ["-x", path], asServerUser: true, currentDirectory: "/")
        guard output.status == 0 else {
            throw PostgresClusterError(
                code: .unusableDirectory,
                message: "the '\(PGProcess.serverUser)' system user cannot reach \(path), so it cannot own a "
                    + "cluster in \(dataDirectory); when running as root, choose a data directory it can "
                    + "traverse (for example under /var/lib or /tmp), not under a private home such as /root")
        }
    }
}
