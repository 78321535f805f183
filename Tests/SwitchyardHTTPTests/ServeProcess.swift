import Foundation
import TestWaiting

/// A `switchyard serve` (or `switchyard-server serve`) process started from the build directory, its output
/// in a log file.
final class ServeProcess: Sendable {
    let process: Process
    let log: String
    /// The process's exit, as an event.
    private let exit: ProcessExit

    /// Starts `<executable> serve <arguments>` in `directory`, without the SWITCHYARD_* variables of the
    /// test's own environment, plus `environment`.
    init(
        arguments: [String], directory: String, logName: String = "serve.log",
        environment extra: [String: String] = [:],
        executable: String = "switchyard"
    )
        throws
    {
        log = directory + "/" + logName
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestStack.buildDirectory + "/" + executable)
        process.arguments = ["serve"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        let deployment = [
            "SWITCHYARD_DATABASE_URL", "SWITCHYARD_KEK", "SWITCHYARD_KEK_PREVIOUS", "SWITCHYARD_OPERATOR_TOKEN",
            "SWITCHYARD_PUBLIC_URL",
        ]
        for name in deployment {
            environment[name] = nil
        }
        environment["LOG_LEVEL"] = "info"
        // Servers under test run on loopback, their providers too.
        environment["SWITCHYARD_ALLOW_LOOPBACK_PUBLIC_URL"] = "1"
        environment.merge(extra) { $1 }
        process.environment = environment
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        exit = ProcessExit(process)
        try process.run()
        self.process = process
    }

    var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Waits (bounded) until the process has exited; returns its status, or nil while it still runs.
    func exitStatus(within seconds: Double = 60) async throws -> Int32? {
        try await exit.status(within: .seconds(seconds))
    }

    /// Asks the process to stop (SIGTERM) and waits for it; kills it when it does not stop in time.
    func stop() async throws {
        if process.isRunning { process.terminate() }
        if try await exitStatus() == nil { kill(process.processIdentifier, SIGKILL) }
    }

    /// Stops the process and waits, blocking the calling thread.
    func stopNow() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
