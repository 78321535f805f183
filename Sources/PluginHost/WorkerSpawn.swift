import Foundation
import ProviderKit

#if canImport(Glibc)
    import Glibc
#endif

/// Starts `switchyard-plugin-worker` for one plugin image, connected to the server by a socket pair.
///
/// The worker gets its end of the pair as fd 3 (the only descriptor it inherits besides stdio: both ends
/// are close-on-exec, and `dup2` onto 3 clears that flag in the child alone), `/dev/null` as stdin, and
/// the server's stderr for stdout and stderr. The runtime's crash backtracer is turned off for it: a
/// crashing plugin costs a restart, not seconds of symbolication.
///
/// This is `posix_spawn` by hand, not swift-subprocess (used for the scanner, ``ScannerRun``): on Linux,
/// swift-subprocess 1.0.2 closes every descriptor from 3 up in the child and offers no file action or
/// pre-spawn hook to keep one (`preSpawnProcessConfigurator` exists on Darwin and Windows only), so it
/// cannot hand the worker its socket. Its `run` also owns the child for one call, while a worker outlives
/// the launch and is killed and reaped by ``WorkerConnection``.
enum WorkerSpawn {
    /// The worker's end of the socket pair, in the worker.
    static let workerDescriptor: Int32 = 3

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run time (Swift
    /// does not see its declaration). Without it only close-on-exec descriptors stay behind.
    private static let closeFromAction: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }

    /// Spawns the worker and returns its pid and the server's end of the pair. The worker drops its
    /// plugin's log lines below `logLevel` itself, and tells the plugin so.
    static func spawn(
        executable: String, pluginFile: String, logLevel: PluginLogLevel = .trace
    ) throws(PluginRefusal) -> (pid_t, Int32) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw PluginRefusal(.createFailed, "no socket for the plugin worker (errno \(errno))")
        }
        var childEnd = pair[1]
        if childEnd == workerDescriptor {
            // dup2 onto itself would keep close-on-exec set: move it away first.
            childEnd = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
            Glibc.close(pair[1])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_adddup2(&actions, childEnd, workerDescriptor)
        // Descriptors the server opened without close-on-exec (client connections among them) must not
        // live on in the worker: a connection the server closes would stay open there.
        if let closeFrom = closeFromAction {
            _ = closeFrom(&actions, workerDescriptor + 1)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = [
            executable, "--plugin", pluginFile, "--fd", "\(workerDescriptor)", "--log-level", "\(logLevel.rawValue)",
        ]
        // The scanner's minimal environment: never the server's key, operator token or database URL.
        let environment = ScannerRun.environment(ProcessInfo.processInfo.environment)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        Glibc.close(childEnd)
        guard result == 0 else {
            Glibc.close(pair[0])
            throw PluginRefusal(
                .createFailed, "the plugin worker \(executable) could not be started (errno \(result))")
        }
        return (pid, pair[0])
    }
}
