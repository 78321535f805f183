import CLibPQ
import Foundation
import SwitchyardStore

/// Runs the PostgreSQL command-line tools, as the `postgres` system user when we are root.
///
/// This is `posix_spawn` by hand, not swift-subprocess: swift-subprocess 1.0.2 only has an async `run`,
/// and ``PostgresCluster`` is synchronous because its `stop()` runs where nothing can be awaited (`defer`
/// blocks of the commands, the test support's `atexit` handler). Waiting for an async run from there
/// would block a thread on a task that needs the cooperative pool.
enum PGProcess {
    /// Exit status and combined stdout/stderr of a finished command.
    struct Output {
        var status: Int32
        var text: String

        /// The last lines of the output, for error messages.
        func tail(_ lines: Int = 20) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: true).suffix(lines).joined(separator: "\n")
        }
    }

    /// The system user that owns clusters when we run as root.
    static let serverUser = "postgres"

    static var isRoot: Bool { geteuid() == 0 }

    /// Runs a program to completion (blocking), capturing its output.
    ///
    /// - Parameters:
    ///   - asServerUser: run as ``serverUser`` (through `runuser`, else `su`) when we are root.
    ///   - searchPath: look `executable` up in `PATH`.
    static func run(
        _ executable: String, _ arguments: [String], asServerUser: Bool = false, searchPath: Bool = false,
        currentDirectory: String? = nil
    ) throws -> Output {
        var program = executable
        var args = arguments
        if searchPath {
            program = "/usr/bin/env"
            args = [executable] + args
        }
        if asServerUser && isRoot {
            if let runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            }) {
                args = ["-u", serverUser, "--", program] + args
                program = runuser
            } else {
                let command = ([program] + args).map(shellQuote).joined(separator: " ")
                args = ["-s", "/bin/sh", serverUser, "-c", command]
                program = "/bin/su"
            }
        }
        return try spawn(program, args, currentDirectory: currentDirectory)
    }

    /// Quotes a word for `/bin/sh`.
    static func shellQuote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Spawns with `posix_spawn` and reaps with `waitpid`.
    ///
    /// The child gets /dev/null as input, a temporary file as output, a clean signal state and no other
    /// descriptors, so a server it leaves running (pg_ctl start) holds nothing of ours; completion is
    /// the child's exit, not the end of its output.
    private static func spawn(_ program: String, _ arguments: [String], currentDirectory: String?) throws -> Output {
        var template = Array("/tmp/switchyard-cmd-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw PostgresClusterError(
                code: .commandFailed, message: "cannot create a temporary file for command output")
        }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fd, 1)
        posix_spawn_file_actions_adddup2(&actions, fd, 2)
        cpq_spawn_add_close_from(&actions, 3)
        if let currentDirectory { cpq_spawn_add_chdir(&actions, currentDirectory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid = pid_t()
        let copies: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let spawned = posix_spawn(&pid, program, &actions, &attributes, copies + [nil], cpq_environ())
        guard spawned == 0 else {
            let name = URL(fileURLWithPath: program).lastPathComponent
            throw PostgresClusterError(
                code: .commandFailed, message: "cannot run \(name): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        lseek(fd, 0, SEEK_SET)
        return Output(status: exitStatus, text: readAll(fd))
    }

    /// Reads a descriptor to its end (also works for procfs files, which report size 0).
    static func readAll(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads a (small) file's text; nil when it cannot be opened.
    static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readAll(fd)
    }
}
