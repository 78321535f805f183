import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderKit
import Tracing

/// The host's outbound HTTP, clock and logging for plugins.
///
/// One shared `HTTPClient` sends every plugin request, with a deadline (the request's `timeoutMs`, or
/// the default). Failures are classified for the orchestrator: `notSent` only when the request
/// certainly never left the host, otherwise `noResponse`. Each exchange is logged at debug with
/// method, host, path, status and duration; header values that may be secret and bodies never are.
public final class OutboundHTTPService: HostServices, Sendable {
    private let client: HTTPClient
    private let defaultTimeout: Duration
    private let maximumResponseBytes: Int
    private let logger: Logger
    private let clock: @Sendable () -> Date

    /// Creates the service and its HTTP client; call ``shutdown()`` when done.
    ///
    /// - Parameters:
    ///   - defaultTimeout: Total time for an exchange whose request has no `timeoutMs`.
    ///   - connectTimeout: Time allowed to establish a connection (TCP and TLS).
    ///   - maximumResponseBytes: Larger response bodies are dropped and reported as `noResponse`.
    ///   - logger: Where exchanges and plugin log lines go.
    ///   - clock: The host's clock, given to plugins.
    public init(
        defaultTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10),
        maximumResponseBytes: Int = 8 << 20, logger: Logger, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: Self.timeAmount(connectTimeout), read: nil)
        configuration.redirectConfiguration = .disallow
        // Connections to a provider are kept alive and reused. Idle ones close after 30 s, before the
        // 60 s idle timeout common at providers' load balancers, so a request is rarely sent on a connection
        // the other side is closing. Up to 32 per host, so concurrent payments do not queue for a few.
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 32)
        // Fail waiting requests as soon as a connection attempt fails, instead of retrying until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        // The client takes the tracer bootstrapped by now; without one, no span is started and given its
        // attributes for nothing on every exchange.
        if InstrumentationSystem.tracer is NoOpTracer { configuration.tracing.tracer = nil }
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.defaultTimeout = defaultTimeout
        self.maximumResponseBytes = maximumResponseBytes
        self.logger = logger
        self.clock = clock
    }

    /// Shuts the HTTP client down. Requests sent afterwards are `notSent`.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func send(_ request: OutboundRequest) async -> OutboundResult {
        let started = ContinuousClock.now
        let result = await exchange(request)
        logExchange(request, result: result, duration: ContinuousClock.now - started)
        return result
    }

    /// The plugin level of this service's logger: plugins skip the lines it would drop.
    public var logLevel: PluginLogLevel {
        switch logger.logLevel {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error, .critical: .error
        }
    }

    public func log(_ level: PluginLogLevel, _ message: String, metadata: [String: String]) {
        logger.log(
            level: Self.loggerLevel(level), "\(message)",
            metadata: SensitiveNames.redact(metadata).mapValues { Logger.MetadataValue.string($0) }
        )
    }

    public func now() -> Date {
        clock()
    }

    private func exchange(_ request: OutboundRequest) async -> OutboundResult {
        let method = request.method.uppercased()
        guard (1...20).contains(method.utf8.count), method.utf8.allSatisfy({ (65...90).contains($0) }) else {
            return OutboundResult(kind: .notSent, reason: "invalid method")
        }
        let prepared: HTTPClient.Request
        do {
            prepared = try HTTPClient.Request(
                url: request.url, method: HTTPMethod(rawValue: method),
                headers: HTTPHeaders(request.headers.map { ($0.name, $0.value) }), body: request.body.map { .bytes($0) }
            )
        } catch {
            return OutboundResult(kind: .notSent, reason: "invalid URL")
        }
        // A plugin's `timeoutMs` is capped at 10 minutes: a huge value would overflow the deadline.
        let timeout = request.timeoutMs.map { Duration.milliseconds(min(max(1, $0), 600_000)) } ?? defaultTimeout
        let delegate = ExchangeDelegate(maximumBytes: maximumResponseBytes)
        // The exchange prefers a connection on the loop that serves the plugin's request, and takes an idle
        // one on another loop before it opens a new one. (Requiring that loop, `.delegateAndChannel(on:)`,
        // made every connection the pool opened for it one it closes as soon as no request waits on that
        // loop: under concurrent payments nearly every exchange opened a connection of its own.)
        let task = client.execute(
            request: prepared, delegate: delegate,
            eventLoop: PluginTaskContext.eventLoop.map { .delegate(on: $0) } ?? .indifferent,
            deadline: .now() + Self.timeAmount(timeout))
        do {
            let response = try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
            return OutboundResult(
                kind: .response, status: response.status, headers: response.headers, body: response.body)
        } catch {
            return ExchangeFailure.classify(error, requestHeadSent: delegate.requestHeadSent)
        }
    }

    private func logExchange(_ request: OutboundRequest, result: OutboundResult, duration: Duration) {
        // The line is a debug line: below that level its URL parse and metadata would be built for nothing.
        guard logger.logLevel <= .debug else { return }
        let url = URLComponents(string: request.url)
        var metadata: Logger.Metadata = [
            "http.method": "\(request.method.uppercased())",
            "http.host": "\(url?.host ?? "?")",
            "http.path": "\(url?.percentEncodedPath ?? "?")",
            "http.outcome": "\(result.kind.rawValue)",
            "http.duration_ms":
                "\(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)",
        ]
        if let status = result.status {
            metadata["http.status"] = "\(status)"
        }
        if let reason = result.reason {
            metadata["http.reason"] = "\(reason)"
        }
        if let pluginID = PluginTaskContext.pluginID {
            metadata["plugin.id"] = "\(pluginID)"
        }
        logger.debug("provider exchange", metadata: metadata)
        if logger.logLevel <= .trace {
            let headers = request.headers.map { (name: $0.name, value: $0.value) }
            logger.trace(
                "provider exchange headers",
                metadata: ["http.request.headers": "\(SensitiveNames.loggable(headers, extra: request.redactHeaders))"]
            )
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let components = duration.components
        let (whole, overflow) = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carry) = whole.addingReportingOverflow(components.attoseconds / 1_000_000_000)
        if overflow || carry { return .nanoseconds(components.seconds < 0 ? 0 : Int64.max / 2) }
        return .nanoseconds(total)
    }

    private static func loggerLevel(_ level: PluginLogLevel) -> Logger.Level {
        switch level {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}
