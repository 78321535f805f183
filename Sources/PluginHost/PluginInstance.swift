import Foundation

/// A live plugin instance, in process or in a worker process.
protocol PluginInstance: Sendable {
    /// Runs the call of `method` with `payload` and returns the plugin's reply JSON, or the host's own
    /// answer when the plugin could not give one (deadline, worker death, quarantine).
    func invoke(method: String, payload: Data) async -> Result<Data, PluginCallError>

    /// Why the plugin serves nothing any more, if it was quarantined.
    var quarantine: PluginQuarantine? { get }
}

/// A plugin file that crashed too often: it serves nothing until a new file (a new digest) replaces it.
public struct PluginQuarantine: Sendable, Equatable {
    /// Why, for people.
    public var reason: String
    /// When it was quarantined (the host's clock).
    public var at: Date
}
