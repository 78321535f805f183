import ArgumentParser
import PluginHost

/// `switchyard plugin-scan FILE`: the disposable scanner process the server starts for every new or
/// changed plugin file. It restricts itself (seccomp), opens the file, prints one JSON scan report and
/// exits. Not meant to be run by hand.
struct PluginScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin-scan", abstract: "Examine one plugin file in a restricted process.",
        shouldDisplay: false)

    @Argument(help: "The plugin .so file.")
    var file: String

    func run() throws {
        PluginScan.runAndExit(path: file)
    }
}
