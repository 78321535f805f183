import Foundation
import Subprocess

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a short-lived child process with a deadline and bounded output, started and awaited
/// with swift-subprocess: no thread waits for it.
///
/// The child starts in a session of its own with standard input and error on `/dev/null`, standard
/// output on a pipe, default signal dispositions, an empty signal mask and no other descriptor (the
/// library closes every descriptor from 3 up in the child). It is killed (SIGKILL) at the deadline or
/// once it wrote more than `maximumOutput` bytes, and reaped before ``run()`` returns.
struct ScannerRun: Sendable {
    /// What happened to the child.
    enum Outcome: Sendable, Equatable {
        /// The child could not be started (`errno`).
        case notStarted(Int32)
        /// The child exited with a status, after writing this output.
        case exited(Int32, Data)
        /// The child was ended by a signal.
        case signaled(Int32, Data)
        /// The deadline passed; the child was killed.
        case timedOut
        /// The child wrote too much; it was killed.
        case tooMuchOutput
    }

    var executable: String
    var arguments: [String]
    var timeout: Duration
    var maximumOutput: Int

    /// Starts the child and waits for it, for at most about `timeout`.
    ///
    /// At the deadline the run is cancelled, which makes swift-subprocess kill the child (an empty
    /// teardown sequence is SIGKILL alone); the task group returns only once the child is reaped.
    func run() async -> Outcome {
        await withTaskGroup(of: Outcome?.self) { group in
            group.addTask { await self.runToExit() }
            group.addTask {
                // nil when the clock is cancelled: the run ended first.
                (try? await Task.sleep(for: self.timeout)).map { Outcome.timedOut }
            }
            var ended: Outcome?
            for await outcome in group {
                guard let outcome else { continue }
                ended = outcome
                group.cancelAll()
                break
            }
            return ended ?? .timedOut
        }
    }

    /// Runs the child to its exit, or until the task is cancelled.
    private func runToExit() async -> Outcome {
        var options = PlatformOptions()
        // No controlling terminal, no shared process group.
        options.createSession = true
        do {
            let result = try await Subprocess.run(
                .path(.init(executable)), arguments: Arguments(arguments),
                environment: .custom(Self.variables(ProcessInfo.processInfo.environment)),
                platformOptions: options, input: .none, output: .bytes(limit: maximumOutput), error: .discarded)
            let output = Data(result.standardOutput)
            switch result.terminationStatus {
            case .exited(let status): return .exited(status, output)
            case .signaled(let signal): return .signaled(signal, output)
            }
        } catch let error as SubprocessError {
            return Self.outcome(of: error)
        } catch {
            return .exited(-1, Data())
        }
    }

    /// What a failed run means: not started, too much output, or lost (reported like a failed exit).
    private static func outcome(of error: SubprocessError) -> Outcome {
        switch error.code {
        case .outputLimitExceeded:
            return .tooMuchOutput
        case .spawnFailed, .executableNotFound:
            return .notStarted(error.underlyingError?.rawValue ?? ENOENT)
        default:
            return .exited(-1, Data())
        }
    }

    /// ``environment(_:)`` as swift-subprocess takes it. Not as `KEY=value` byte rows: 1.0.2 copies those
    /// with `strdup` without a terminating zero, so the child would read past each row.
    private static func variables(_ parent: [String: String]) -> [Environment.Key: String] {
        var variables: [Environment.Key: String] = [:]
        for row in environment(parent) {
            guard let equals = row.firstIndex(of: "="), let key = Environment.Key(rawValue: String(row[..<equals]))
            else { continue }
            variables[key] = String(row[row.index(after: equals)...])
        }
        return variables
    }

    /// The variables the child gets: only what loading needs, never the server's secrets (the
    /// key-encryption key, tokens, the database URL), which a plugin's initialisers could read.
    static func environment(_ parent: [String: String]) -> [String] {
        var environment = parent.filter { ["PATH", "LD_LIBRARY_PATH", "TMPDIR", "LANG", "LC_ALL"].contains($0.key) }
        // A crash is reported by its signal; the runtime's backtracer would only slow it down.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment.map { "\($0.key)=\($0.value)" }.sorted()
    }
}
