#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    /// The lowest level the host records: lines below it may be skipped before they are built, as the
    /// host drops them anyway. `.trace` (everything) unless a host says otherwise.
    var logLevel: PluginLogLevel { get }
}

extension HostServices {
    /// Every level: a host that does not say otherwise records them all.
    public var logLevel: PluginLogLevel { .trace }
}

extension PluginLogLevel: Comparable {
    public static func < (lhs: PluginLogLevel, rhs: PluginLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
