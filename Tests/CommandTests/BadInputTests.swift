import ArgumentParser
import Foundation
import Testing

@testable import SwitchyardCommands

/// Bad input to the commands both executables share is refused with a message naming what is wrong and a
/// usage exit code, never a crash or a raw system error.
struct BadInputTests {
    static let database = ["--database-url", "postgresql:///switchyard"]

    /// The message and exit code `parse` refuses `arguments` with.
    static func refusal<C: ParsableCommand>(_ command: C.Type, _ arguments: [String]) -> (String, Int32)? {
        do {
            _ = try command.parse(arguments)
            return nil
        } catch {
            return (command.message(for: error), command.exitCode(for: error).rawValue)
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SWITCHYARD_PORT"] == nil))
    func aPortOutOfRangeIsRefusedNotTruncated() throws {
        for (flag, value) in [("--port", "99999"), ("--port", "65536"), ("--metrics-port", "70000")] {
            let refused = Self.refusal(ServeCommand.self, Self.database + [flag, value])
            let message = refused?.0 ?? "accepted"
            #expect(message.contains("\(flag) (or SWITCHYARD_"), "\(flag) \(value): \(message)")
            #expect(message.contains("0 to 65535, not \(value)"), "\(message)")
            #expect(refused?.1 == ExitCode.validationFailure.rawValue)
        }
        let command = try ServeCommand.parse(Self.database + ["--port", "0", "--metrics-port", "65535"])
        #expect(try command.options.port == 0)
        #expect(try command.options.metricsPort == 65_535)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SWITCHYARD_KEK"] == nil))
    func aMissingOrUnreadableKeyFileIsNamedWithItsFlag() throws {
        let directory = NSTemporaryDirectory() + "kek-input-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases: [([String], String)] = [
            (["--kek-file", directory + "/missing"], "--kek-file \(directory)/missing: no such file"),
            (["--kek-file", directory], "--kek-file \(directory): cannot be read"),
        ]
        for (arguments, expected) in cases {
            let options = try DatabaseOptions.parse(arguments)
            do {
                _ = try CommandSupport.secretBox(options)
                Issue.record("\(arguments) was accepted")
            } catch let error as ValidationError {
                #expect(error.message.hasPrefix(expected), "\(error.message)")
            }
        }
        let previous = try DatabaseOptions.parse(["--kek-previous-file", directory + "/old"])
        do {
            _ = try CommandSupport.secretBox(current: CommandSupport.newKEK(), previous)
            Issue.record("a missing previous key file was accepted")
        } catch let error as ValidationError {
            #expect(error.message == "--kek-previous-file \(directory)/old: no such file")
        }
    }

    @Test func policyCheckRefusesAMissingFileAndAFileThatIsNotJSON() async throws {
        let directory = NSTemporaryDirectory() + "policy-input-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: directory + "/policy.json"))
        let missing = try PolicyCommand.Check.parse([directory + "/none.json"])
        await #expect(throws: ValidationError.self) { try await missing.run() }
        let garbage = try PolicyCommand.Check.parse([directory + "/policy.json"])
        await #expect(throws: ExitCode.failure) { try await garbage.run() }
        let directoryItself = try PolicyCommand.Check.parse([directory])
        await #expect(throws: ValidationError.self) { try await directoryItself.run() }
    }
}
