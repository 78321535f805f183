import ArgumentParser

/// `switchyard-server serve`: the API server against an external database; it refuses to start without
/// one (`--database-url` or SWITCHYARD_DATABASE_URL).
package struct ServeCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the Switchyard API server against an external database.")

    package init() {}

    @OptionGroup package var options: ServeOptions

    package func validate() throws {
        guard options.database.databaseURL != nil else { throw ServeOptions.noDatabase }
    }

    package func run() async throws {
        try await options.run(embedded: nil)
    }
}
