import Foundation
import Metrics
import Prometheus

/// The process-wide metrics registry behind `GET /metrics`.
///
/// `MetricsSystem` can be bootstrapped once per process, while a process may start several servers
/// (tests do): ``bootstrap()`` installs the Prometheus factory the first time and does nothing after,
/// and every server renders the same registry.
public enum SwitchyardMetrics {
    /// The registry every metric of this process is kept in.
    public static let registry = PrometheusCollectorRegistry()

    private static let installed: Void = {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (exposedName(name), labels.map { (sanitized($0.0), $0.1) })
        }
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
            .seconds(30),
        ]
        MetricsSystem.bootstrap(factory)
    }()

    /// Installs the Prometheus factory as the process's metrics backend (once; later calls do nothing).
    public static func bootstrap() {
        installed
    }

    /// The registry in the Prometheus text exposition format, each family with its `# HELP` line.
    public static func render() -> String {
        bootstrap()
        return MetricHelp.annotate(registry.emitToString())
    }

    /// The name a metric is exposed under: sanitized, then renamed when its library's name breaks
    /// Prometheus' conventions (see ``MetricHelp/renamed``).
    static func exposedName(_ name: String) -> String {
        let name = sanitized(name)
        return MetricHelp.renamed[name] ?? name
    }

    /// A metric or label name in Prometheus' alphabet: `.` and `-` become `_`.
    static func sanitized(_ name: String) -> String {
        // Most names need nothing, and a name is sanitized each time a request makes its metric.
        guard name.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) else { return name }
        return String(
            name.map { character -> Character in
                character == "." || character == "-" ? "_" : character
            })
    }
}
