import Foundation

/// The `switchyard` executable that runs a plugin's scanner and worker processes.
///
/// Plugin code that has not been accepted never runs in the server: it is examined in a disposable
/// child process started from this executable, and accepted plugins run in worker processes started
/// from it too (unless the policy trusts them to run in process).
public struct PluginExecutable: Sendable, Equatable {
    /// Absolute path of the executable.
    public var path: String

    /// Names an executable by its absolute path.
    public init(path: String) {
        self.path = path
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
