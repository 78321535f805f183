import ProviderKit

/// A plugin call that ended without a result: the plugin's own error code, or one of the host's
/// (`not_supported`, `bad_reply`, `encode_failed`, `cancelled`, `deadline_…`, `worker_…`).
public struct PluginCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable machine-readable code.
    public var code: PluginResultCode
    /// A message without secrets.
    public var message: String

    public init(_ code: PluginResultCode, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
