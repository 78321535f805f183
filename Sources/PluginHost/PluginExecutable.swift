import Foundation

/// The `switchyard` (or `switchyard-server`) executable that runs a plugin's scanner processes, and the
/// `switchyard-plugin-worker` beside it that runs its worker processes.
///
/// Plugin code that has not been accepted never runs in the server: it is examined in a disposable
/// child process started from this executable. Accepted plugins run in worker processes started from
/// ``workerPath`` (unless the policy trusts them to run in process): a small program that links only
/// the plugin ABI, `ProviderKit` and the worker's side of the frame protocol.
public struct PluginExecutable: Sendable, Equatable {
    /// Absolute path of the executable.
    public var path: String

    /// Names an executable by its absolute path.
    public init(path: String) {
        self.path = path
    }

    /// The names of the server executables: the development `switchyard` and the production
    /// `switchyard-server`. Both offer the `plugin-scan` command a scanner process runs.
    public static let serverNames: Set<String> = ["switchyard", "switchyard-server"]

    /// The name of the worker executable, installed in the same directory as the server executable.
    public static let workerName = "switchyard-plugin-worker"

    /// Absolute path of the worker executable: ``workerName`` beside ``path``.
    public var workerPath: String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(Self.workerName).path
    }

    /// The running executable, when it is one of ``serverNames``; `nil` inside other programs (tests),
    /// which must name the built `switchyard` explicitly.
    public static func current() -> PluginExecutable? {
        guard let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        return running(resolved)
    }

    /// The executable at `path` when its file name is one of ``serverNames``.
    public static func running(_ path: String) -> PluginExecutable? {
        serverNames.contains(URL(fileURLWithPath: path).lastPathComponent) ? PluginExecutable(path: path) : nil
    }
}
