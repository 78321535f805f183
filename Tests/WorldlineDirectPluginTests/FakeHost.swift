import Foundation
import ProviderKit

/// A scripted host: answers requests by `METHOD /path` from a table, records requests and log lines.
final class FakeHost: HostServices, @unchecked Sendable {
    struct LogLine: Sendable {
        var level: PluginLogLevel
        var message: String
        var metadata: [String: String]
    }

    private let lock = NSLock()
    private var routes: [String: OutboundResult]
    private var sent: [OutboundRequest] = []
    private var logged: [LogLine] = []
    let clock: Date

    /// `routes` maps `METHOD /path` (path without the base URL) to the canned answer.
    init(routes: [String: OutboundResult] = [:], now: Date = Fixtures.now) {
        self.routes = routes
        self.clock = now
    }

    var requests: [OutboundRequest] { lock.withLock { sent } }
    var logs: [LogLine] { lock.withLock { logged } }

    func send(_ request: OutboundRequest) async -> OutboundResult {
        let path =
            request.url.hasPrefix(Fixtures.baseURL)
            ? String(request.url.dropFirst(Fixtures.baseURL.count)) : request.url
        return lock.withLock {
            sent.append(request)
            return routes["\(request.method) \(path)"]
                ?? OutboundResult(kind: .response, status: 599, body: Data("no route".utf8))
        }
    }

    func log(_ level: PluginLogLevel, _ message: String, metadata: [String: String]) {
        lock.withLock { logged.append(LogLine(level: level, message: message, metadata: metadata)) }
    }

    func now() -> Date { clock }

    /// Every logged message and metadata value, joined, for secrecy checks.
    var allLoggedText: String {
        logs.map { line in ([line.message] + line.metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
            .joined(separator: "\n")
    }
}
