import ArgumentParser
import Foundation
import PluginHost

extension PluginsCommand {
    /// `switchyard plugins check FILE.so [--scenario FILE] [--json]`: certifies a plugin offline.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Certify a plugin offline against the ABI's contract.",
            discussion: """
                Loads the file as the server does (a scanner process, then a worker), checks its manifest and \
                drives every declared flow against a local stub provider: the scenario's answers, then an \
                unreachable provider, a reset after sending, a 503, an unreadable body and a cancel. Checks that \
                each call completes once and promptly, that no secret appears in a log line, error, outcome or \
                URL, that requests stay at the account's base URL, that the Idempotency-Key reaches the provider, \
                that notifications are verified and that replies match the ABI's schemas. Exits 1 when any \
                check fails.
                """)

        @Argument(help: "The plugin .so file.")
        var file: String

        @Option(
            help:
                "A scenario file: credentials of the right shape, the provider's answers per flow, a genuine notification."
        )
        var scenario: String?

        @Flag(help: "Print the report as JSON.")
        var json = false

        func run() async throws {
            let report = try await PluginsCommand.certify(file: file, scenarioPath: scenario)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.table)
            }
            if !report.passed { throw ExitCode(1) }
        }
    }

    /// Certifies `file` (with the scenario at `scenarioPath`) from this executable.
    static func certify(file: String, scenarioPath: String?) async throws -> CertificationReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ValidationError("no plugin file at \(file)")
        }
        let scenario: CertificationScenario?
        do {
            scenario = try scenarioPath.map(CertificationScenario.read)
        } catch let error as CertificationInputError {
            throw ValidationError(error.description)
        }
        guard let executable = PluginExecutable.current() else {
            throw ValidationError("plugins check runs from the switchyard or switchyard-server executable")
        }
        guard FileManager.default.isExecutableFile(atPath: executable.workerPath) else {
            throw ValidationError("no \(PluginExecutable.workerName) beside \(executable.path): plugins run in it")
        }
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        return await PluginCertifier(
            file: absolute, scenario: scenario, scenarioPath: scenarioPath, executable: executable
        ).run()
    }
}
