import ArgumentParser
import Foundation
import Hummingbird
import Logging
import OTel
import ServiceLifecycle
import SwitchyardHTTP
import SwitchyardObservability
import Tracing

/// How `serve` writes its log lines.
package enum LogFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// One JSON object per line (see `JSONLogHandler`).
    case json
    /// swift-log's plain text lines.
    case text

    /// JSON when standard output is not a terminal, text on a terminal.
    package static var automatic: LogFormat { isatty(STDOUT_FILENO) == 1 ? .text : .json }
}

/// The process-wide observability setup of `serve`: log format, metrics registry, OTLP trace export.
package enum ServeObservability {
    /// Installs the log handler for `format`, with the current span's ids as `trace.id` and `span.id`.
    package static func bootstrapLogging(_ format: LogFormat) {
        var keys = OTel.Configuration.LoggingMetadataProviderConfiguration.default
        keys.traceIDKey = "trace.id"
        keys.spanIDKey = "span.id"
        keys.traceFlagsKey = "trace.flags"
        let provider = OTel.makeLoggingMetadataProvider(configuration: keys)
        switch format {
        case .json:
            LoggingSystem.bootstrap(
                { label, provider in
                    JSONLogHandler.standardOutput(label: label, metadataProvider: provider)
                }, metadataProvider: provider)
        case .text:
            LoggingSystem.bootstrap(
                { label, provider in
                    StreamLogHandler.standardOutput(label: label, metadataProvider: provider)
                }, metadataProvider: provider)
        }
    }

    /// The OTLP endpoint traces go to: `--otlp-endpoint`, else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
    /// OTEL_EXPORTER_OTLP_ENDPOINT; nil: no export (spans are not recorded).
    package static func otlpEndpoint(option: String?) -> String? {
        let environment = ProcessInfo.processInfo.environment
        let candidates = [
            option, environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"], environment["OTEL_EXPORTER_OTLP_ENDPOINT"],
        ]
        return candidates.compactMap { $0 }.first { !$0.isEmpty }
    }

    /// Bootstraps the tracer exporting over OTLP (W3C `traceparent` propagation) and returns the exporter's
    /// service, when an endpoint is configured; else nil and tracing stays off.
    package static func bootstrapTracing(endpoint: String?, logger: Logger) throws -> (any Service)? {
        guard let endpoint else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "switchyard"
        configuration.diagnosticLogger = .custom(Logger(label: "switchyard.otel"))
        configuration.diagnosticLogLevel = .warning
        configuration.propagators = [.traceContext]
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.traces.enabled = true
        configuration.traces.otlpExporter.endpoint = endpoint
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        logger.info("traces exported over OTLP", metadata: ["otlp.endpoint": "\(endpoint)"])
        return backend.service
    }
}

extension ServeObservability {
    /// A listener serving only `GET /metrics`, for scrapers kept off the API port; its scrape-time gauges
    /// are read from `deps` as the API port's are.
    package static func metricsApplication(_ deps: ServerDependencies, host: String, port: Int, logger: Logger)
        -> some Service
    {
        Application(
            router: MetricsEndpoint.listenerRouter(deps),
            configuration: .init(address: .hostname(host, port: port), serverName: "switchyard"), logger: logger)
    }
}
