import ArgumentParser
import Foundation
import Testing

@testable import SwitchyardBench

/// `switchyard bench` against a running server: what it refuses before measuring, and that it stops at
/// once where nothing answers.
struct BenchCommandTests {
    @Test func benchMeasuresARunningServerWithItsOwnFlows() throws {
        #expect(throws: (any Error).self) { try BenchCommand.parse([]) }
        #expect(throws: (any Error).self) { try BenchCommand.parse(["--url", "http://127.0.0.1:8080"]) }
        #expect(throws: (any Error).self) {
            try BenchCommand.parse(["--url", "http://127.0.0.1:8080", "--api-key", "k", "--flow", "worldline"])
        }
        let command = try BenchCommand.parse(["--url", "http://127.0.0.1:8080", "--api-key", "k"])
        #expect(command.options.flows(offered: BenchFlows.shared) == ["citcon"])
        #expect(throws: (any Error).self) {
            try BenchCommand.parse(["--url", "http://127.0.0.1:8080", "--api-key", "k", "--flow", "antom"])
        }
        for bad in ["notaurl", "ftp://127.0.0.1", "http://", "127.0.0.1:8080", "http://127.0.0.1:8080/?x=1"] {
            #expect(throws: (any Error).self, "--url \(bad)") {
                try BenchCommand.parse(["--url", bad, "--api-key", "k"])
            }
        }
    }

    @Test func benchAgainstAnAddressWhereNothingAnswersStopsAtOnce() async throws {
        // A port nothing listens on: the bench stops before its warm-up, saying the server is not serving.
        let command = try BenchCommand.parse(["--url", "http://127.0.0.1:9", "--api-key", "k", "--payments", "1"])
        await #expect(throws: ExitCode.failure) { try await command.run() }
    }
}
