import Foundation
import ProviderKit

/// A scripted host for plugin unit tests: answers requests by `METHOD /path` from a table, and records the
/// requests and log lines so tests can check request shapes and that nothing secret was logged.
open class ScriptedProviderHost: HostServices, @unchecked Sendable {
    /// One line a plugin logged.
    public struct LogLine: Sendable {
        public var level: PluginLogLevel
        public var message: String
        public var metadata: [String: String]
    }

    // NSLock, not Mutex: the plugin SDK also builds for macOS 14, where Synchronization's Mutex is not available.
    private let lock = NSLock()
    private let baseURL: String
    private var routes: [String: OutboundResult]
    private var queued: [String: [OutboundResult]] = [:]
    private var sent: [OutboundRequest] = []
    private var logged: [LogLine] = []
    /// The time `now()` answers.
    public let clock: Date

    /// - Parameters:
    ///   - baseURL: stripped from request URLs before they are looked up in `routes`.
    ///   - routes: `METHOD /path` → the canned answer; anything else gets a 599.
    ///   - now: the host's clock.
    public init(baseURL: String, routes: [String: OutboundResult] = [:], now: Date) {
        self.baseURL = baseURL
        self.routes = routes
        self.clock = now
    }

    /// Every request the plugin sent, in order.
    public var requests: [OutboundRequest] { lock.withLock { sent } }
    /// Every line the plugin logged, in order.
    public var logs: [LogLine] { lock.withLock { logged } }

    public func send(_ request: OutboundRequest) async -> OutboundResult {
        let path = request.url.hasPrefix(baseURL) ? String(request.url.dropFirst(baseURL.count)) : request.url
        return lock.withLock {
            sent.append(request)
            let key = "\(request.method) \(path)"
            if let next = queued[key]?.first {
                queued[key]?.removeFirst()
                return next
            }
            return routes[key]
                ?? OutboundResult(kind: .response, status: 599, body: Data("no route".utf8))
        }
    }

    /// Answers the next requests to `route` (`METHOD /path`) with `answers`, in order, before its table entry.
    public func queue(_ route: String, _ answers: [OutboundResult]) {
        lock.withLock { queued[route, default: []].append(contentsOf: answers) }
    }

    public func log(_ level: PluginLogLevel, _ message: String, metadata: [String: String]) {
        lock.withLock { logged.append(LogLine(level: level, message: message, metadata: metadata)) }
    }

    public func now() -> Date { clock }

    /// Every logged message and metadata value, joined, for secrecy checks.
    public var allLoggedText: String {
        logs.map { line in ([line.message] + line.metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
            .joined(separator: "\n")
    }
}
