import ArgumentParser
import Foundation
import SwitchyardApp

/// `switchyard policy check FILE`: validates a policy file as `serve` and `POST /admin/v1/policy/reload`
/// would, without starting anything.
struct PolicyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy", abstract: "Policy file tools.", subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a policy file: prints ok, or each problem (unknown keys, bad values), then fails.")

        @Argument(help: "The policy file (e.g. policy.json).")
        var file: String

        func run() async throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read \(file)")
            }
            let problems = PolicyDocument.problems(in: data)
            guard !problems.isEmpty else {
                print("\(file): ok")
                return
            }
            for problem in problems {
                print("\(file): \(problem)")
            }
            throw ExitCode.failure
        }
    }
}
