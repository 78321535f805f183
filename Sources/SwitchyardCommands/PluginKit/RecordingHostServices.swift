import Foundation
import ProviderKit
import Synchronization

/// The host services a plugin under check gets: the host's real outbound HTTP (timeouts, redaction,
/// classification), limited to the account's base URL, with every request and log line recorded so the
/// checks can look for secrets, stray URLs and broken completions.
final class RecordingHostServices: HostServices, Sendable {
    /// One outbound request the plugin asked for.
    struct Sent: Sendable {
        var request: OutboundRequest
        var withinBaseURL: Bool
        var result: OutboundResult.Kind
        /// The flow of the call that sent it.
        var flow: Flow?
    }

    /// One line the plugin (or the host about the plugin) logged.
    struct Line: Sendable {
        var level: PluginLogLevel
        var message: String
        var metadata: [String: String]
    }

    private struct State {
        var baseURL = ""
        var flow: Flow?
        var sends: [Sent] = []
        var lines: [Line] = []
    }

    private let http: any HostServices
    private let clock: Date?
    private let state = Mutex(State())

    /// Services over `http`; `clock`, when given, is the time the plugin reads for the whole run.
    init(http: any HostServices, clock: Date? = nil) {
        self.http = http
        self.clock = clock
    }

    /// Points the checks at an account whose base URL is `baseURL` (requests elsewhere are refused), for
    /// calls of `flow` (the checks call one flow at a time).
    func use(baseURL: String, flow: Flow) {
        state.withLock {
            $0.baseURL = baseURL
            $0.flow = flow
        }
    }

    /// Every request so far.
    var sends: [Sent] { state.withLock { $0.sends } }
    /// Every log line so far.
    var lines: [Line] { state.withLock { $0.lines } }

    func send(_ request: OutboundRequest) async -> OutboundResult {
        let (base, flow) = state.withLock { ($0.baseURL, $0.flow) }
        let within = request.url == base || request.url.hasPrefix(base + "/") || request.url.hasPrefix(base + "?")
        let result: OutboundResult
        if within {
            result = await http.send(request)
        } else {
            result = OutboundResult(kind: .notSent, reason: "outside the account's base URL")
        }
        state.withLock {
            $0.sends.append(Sent(request: request, withinBaseURL: within, result: result.kind, flow: flow))
        }
        return result
    }

    func log(_ level: PluginLogLevel, _ message: String, metadata: [String: String]) {
        state.withLock { $0.lines.append(Line(level: level, message: message, metadata: metadata)) }
    }

    func now() -> Date {
        clock ?? http.now()
    }
}
