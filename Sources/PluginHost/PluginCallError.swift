/// A plugin call that ended without a result: the plugin's own error code, or one of the host's
/// (`not_supported`, `bad_reply`, `encode_failed`, `cancelled`).
public struct PluginCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable machine-readable code.
    public var code: String
    /// A message without secrets.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
