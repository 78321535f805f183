import ArgumentParser
import SwitchyardCommands

/// `switchyard-server bench --url`: measures a running deployment (the development executable's `bench`
/// can also start the embedded default and runs the Worldline Direct card flow, which needs the
/// sandbox's card encryption).
package struct BenchCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure payments/s and latency of a running server (--url), against the database reference.")

    package init() {}

    @OptionGroup package var options: BenchOptions

    package func validate() throws {
        try options.validate(offered: BenchFlows.shared)
        guard options.url != nil, options.apiKey != nil else {
            throw ValidationError("bench needs --url and --api-key: this executable measures a running server")
        }
    }

    package func run() async throws {
        guard let url = options.url, let apiKey = options.apiKey else { throw ExitCode.validationFailure }
        try await options.run(
            subject: .running(
                url: url, target: BenchTarget(serverURL: url, apiKey: apiKey), databaseURL: options.databaseURL),
            offered: BenchFlows.shared)
    }
}
