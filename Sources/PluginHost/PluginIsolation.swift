import SwitchyardCore

/// Where a plugin's code runs.
public enum PluginIsolation: String, Codable, Sendable, Equatable, PolicyValue {
    /// In a worker process of its own (`switchyard plugin-worker`), supervised by the server: a crash or
    /// a hang costs that plugin's calls, never the server.
    case process
    /// Inside the server, on threads of its own. Only for plugins the operator trusts.
    case inProcess = "in_process"

    public static var policyType: String { "string" }
    public var policyText: String { "\"\(rawValue)\"" }
}

extension PluginPolicy {
    /// The isolation the policy gives plugin `id`: its first entry's, `process` when it has none.
    public func isolation(for id: String) -> PluginIsolation {
        allowed.first { $0.id == id }?.isolation ?? .process
    }
}
