import Foundation

/// Log levels a plugin may use.
public enum PluginLogLevel: Int32, Codable, Sendable {
    case trace = 0
    case debug = 1
    case info = 2
    case notice = 3
    case warning = 4
    case error = 5
}

/// The services the host gives a plugin: outbound HTTP, logging and the clock.
public protocol HostServices: Sendable {
    /// Sends an HTTP request through the host (which owns timeouts, TLS, redaction and recording).
    func send(_ request: OutboundRequest) async -> OutboundResult
    /// Logs a short message with flat metadata. Never pass secrets.
    func log(_ level: PluginLogLevel, _ message: String, metadata: [String: String])
    /// The host's clock.
    func now() -> Date
}
