import ArgumentParser
import Foundation
import SwitchyardCommands

/// `switchyard serve`: the API server. Without a database URL it is the embedded default: a private
/// PostgreSQL cluster, the provider sandboxes, the plugins built beside the executable and a demo tenant.
struct EmbeddedServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the Switchyard API server.")

    @OptionGroup var options: ServeOptions

    @Option(help: "Port of the embedded sandboxes (default: any free port).")
    var sandboxPort: Int?

    @Option(
        help: """
            With the embedded default: use the sandboxes already running at this URL (`switchyard sandbox \
            --demo-data-dir` with the same data directory) instead of running them in this process.
            """)
    var sandboxURL: String?

    func validate() throws {
        if let sandboxPort { _ = try CommandSupport.checkedPort(sandboxPort, from: "--sandbox-port") }
        guard let sandboxURL else { return }
        guard options.database.databaseURL == nil else {
            throw ValidationError("--sandbox-url belongs to the embedded default: it cannot go with --database-url")
        }
        guard let url = URLComponents(string: sandboxURL), ["http", "https"].contains(url.scheme ?? ""),
            url.host?.isEmpty == false
        else {
            throw ValidationError("--sandbox-url must be an http:// or https:// URL, e.g. http://127.0.0.1:8090")
        }
    }

    func run() async throws {
        try await options.run(embedded: DemoEmbeddedDefault(sandboxPort: sandboxPort, sandboxURL: sandboxURL))
    }
}
