import Foundation
import Testing

@testable import PluginHost

/// What `ScannerRun` sets up for its child and how it ends one that hangs or babbles, shown with
/// `/bin/sh` in place of the scanner.
@Suite("ScannerRun")
struct ScannerRunTests {
    private func shell(_ script: String, timeout: Duration = .seconds(5), maximumOutput: Int = 1 << 16) -> ScannerRun {
        ScannerRun(executable: "/bin/sh", arguments: ["-c", script], timeout: timeout, maximumOutput: maximumOutput)
    }

    private func text(_ outcome: ScannerRun.Outcome) -> String? {
        guard case .exited(0, let output) = outcome else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func theChildLeadsItsOwnSessionWithOnlyStandardDescriptors() async throws {
        // Field 6 of /proc/PID/stat is the session; `sh -c` opens nothing of its own.
        let output = try #require(text(await shell("set -- $(cat /proc/$$/stat); echo $1 $6; ls /proc/$$/fd").run()))
        let lines = output.split(separator: "\n").map(String.init)
        let ids = lines[0].split(separator: " ")
        #expect(ids.count == 2 && ids[0] == ids[1], "\(lines[0])")
        #expect(Array(lines.dropFirst()) == ["0", "1", "2"])
    }

    @Test func theChildReadsNothingAndItsErrorsGoNowhere() async throws {
        let output = try #require(text(await shell("cat; echo lost >&2; echo done").run()))
        #expect(output == "done\n")
    }

    @Test func theChildSeesOnlyTheScrubbedEnvironment() async throws {
        let env = ScannerRun(executable: "/usr/bin/env", arguments: [], timeout: .seconds(5), maximumOutput: 1 << 16)
        let output = try #require(text(await env.run()))
        let variables = output.split(separator: "\n").map(String.init).sorted()
        #expect(variables == ScannerRun.environment(ProcessInfo.processInfo.environment))
    }

    @Test func aChildThatWritesTooMuchIsKilled() async {
        let started = ContinuousClock.now
        #expect(await shell("while :; do echo babble; done", maximumOutput: 1000).run() == .tooMuchOutput)
        #expect(started.duration(to: .now) < .seconds(4))
    }

    @Test func aChildThatHangsIsKilledAtTheDeadline() async {
        let started = ContinuousClock.now
        #expect(await shell("exec sleep 30", timeout: .milliseconds(300)).run() == .timedOut)
        #expect(started.duration(to: .now) < .seconds(4))
    }

    @Test func exitsSignalsAndAMissingExecutableAreTold() async {
        #expect(await shell("echo out; exit 3").run() == .exited(3, Data("out\n".utf8)))
        #expect(await shell("kill -SEGV $$").run() == .signaled(SIGSEGV, Data()))
        let missing = ScannerRun(
            executable: "/nonexistent/scanner", arguments: [], timeout: .seconds(1), maximumOutput: 10)
        guard case .notStarted = await missing.run() else {
            Issue.record("a missing executable is not reported as not started")
            return
        }
    }
}
