import CPluginSandbox
import CSwitchyardPlugin
import ProviderKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The worker process (`switchyard-plugin-worker`): opens one plugin image, creates its instance with
/// host services that forward to the server over the socket, and serves the server's calls until the
/// socket ends.
///
/// A plugin whose manifest says it ``PluginManifest/returnsPromptly`` (every plugin built with
/// ProviderKit) is called on the thread that reads the socket: its entry points only start or resume its
/// own work, and the jobs of that work run there too (``WorkerExecutor``), so a frame wakes one thread of
/// the worker, not two. Any other plugin's calls and completions run on a concurrent queue, never on the
/// reading thread, so that a plugin that blocks in them never stops the worker from reading. `now_ms` is
/// answered in the worker from the clock the server's frames carry (``WorkerClock``).
///
/// Before the image is opened the worker installs the scanner's seccomp filter on itself: the plugin's
/// code cannot open sockets, write files or start programs, so `http_send` (under the server's egress
/// rules, redaction and recording) is its only way out. A kernel that refuses the filter is reported to
/// the server as a warning and the worker serves unrestricted.
public enum PluginWorker {
    /// Serves the plugin image at `file` on the connected socket `fd`, passing on the plugin's log lines
    /// from `logLevel` up (`SY_LOG_*`); returns the exit status.
    public static func serve(file: String, fd: Int32, logLevel: Int32 = 0) -> Int32 {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
        let socket = FrameSocket(fd: fd)
        if sy_sandbox_restrict() != 0 {
            let problem = String(cString: strerror(errno))
            socket.send(
                .log(
                    level: PluginLogLevel.warning.rawValue, message: "plugin worker runs without its seccomp filter",
                    metadata: #"{"plugin.sandbox.problem":"\#(problem)"}"#))
        }
        let table: PluginTable
        do throws(PluginImageError) {
            table = try PluginImageFile.open(file)
        } catch {
            socket.send(.failed(reason: error.reason))
            return 1
        }
        let host = WorkerHost(socket: socket, callsOnReader: table.returnsPromptly, logLevel: logLevel)
        WorkerHost.shared = host
        let reader = ReaderThread.start { host.readLoop() }
        if let executor = host.executor, !executor.installAsGlobal(reader: reader) {
            socket.send(
                .log(
                    level: PluginLogLevel.warning.rawValue,
                    message: "plugin worker runs its tasks on the runtime's own executor", metadata: nil))
        }
        guard let create = table.entries.create, let invoke = table.entries.invoke,
            let instance = create(host.table)
        else {
            socket.send(.failed(reason: "the plugin's create returned no instance"))
            return 1
        }
        host.serve(instance: instance, invoke: invoke, cancel: table.entries.cancel)
        socket.send(.ready)
        host.finished.wait()
        return 0
    }
}
