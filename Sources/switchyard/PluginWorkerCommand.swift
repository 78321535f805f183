import ArgumentParser
import Foundation
import PluginHost

/// `switchyard plugin-worker --plugin FILE --fd N`: runs one plugin image for the server that started
/// it, over the connected socket `N`. Started by the server only; not for people.
struct PluginWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin-worker", abstract: "Run one plugin for the server (internal).", shouldDisplay: false)

    @Option(help: "The plugin image to open (the server's private copy).")
    var plugin: String

    @Option(help: "The connected socket to the server.")
    var fd: Int32 = 3

    func run() throws {
        throw ExitCode(PluginWorker.serve(file: plugin, fd: fd))
    }
}
