import Foundation

/// The `switchyard` executable that runs a plugin's scanner processes, and the
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

    /// The name of the worker executable, installed in the same directory as `switchyard`.
    public static let workerName = "switchyard-plugin-worker"

    /// Absolute path of the worker executable: ``workerName`` beside ``path``.
    public var workerPath: String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(Self.workerName).path
    }

    /// The running executable, when it is `switchyard` itself; `nil` inside other programs (tests),
    /// which must name the built `switchyard` explicitly.
    public static func current() -> PluginExecutable? {
        guard let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            URL(fileURLWithPath: resolved).lastPathComponent == "switchyard"
        else { return nil }
        return PluginExecutable(path: resolved)
    }
}
