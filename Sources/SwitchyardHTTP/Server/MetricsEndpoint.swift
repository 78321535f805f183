import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import SwitchyardCore
import SwitchyardObservability

/// `GET /metrics`: the process's metrics in the Prometheus text format, for the operator token only on the
/// API port, and without authentication on a separate metrics listener (``listenerRouter(_:)``).
/// Gauges that describe shared state (breakers, the janitor's backlog, webhook deliveries) are read at
/// scrape time, whichever listener is scraped.
public struct MetricsEndpoint: Sendable {
    let probes: any OperationalProbes
    let service: PaymentService

    /// The endpoint reading the scrape-time gauges from `deps`' probes and payment service.
    public init(_ deps: ServerDependencies) {
        probes = deps.repositories.probes
        service = deps.service
    }

    /// Registers `GET /metrics` on `group`, which lets only the operator through.
    func register(on group: RouterGroup<AppContext>) {
        group.get("metrics") { _, _ in await scrape() }
    }

    /// The router of a separate metrics listener: `GET /metrics` only, without authentication, for
    /// scrapers kept off the API port.
    public static func listenerRouter(_ deps: ServerDependencies) -> Router<BasicRequestContext> {
        let endpoint = MetricsEndpoint(deps)
        let router = Router()
        router.get("metrics") { _, _ in await endpoint.scrape() }
        return router
    }

    /// The scrape-time gauges brought up to date, then the registry rendered as a response.
    func scrape() async -> Response {
        // Gauges made before the backend is installed would record nothing for ever.
        SwitchyardMetrics.bootstrap()
        await collect()
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: SwitchyardMetrics.render())))
    }

    /// Updates the scrape-time gauges; a database that does not answer leaves the last values.
    func collect() async {
        for entry in await service.health.snapshot() {
            let value: Double =
                switch entry.state {
                case .closed: 0
                case .halfOpen: 1
                case .open: 2
                }
            Gauge(label: MetricName.breakerState, dimensions: [("account", entry.accountId.uuidString.lowercased())])
                .record(value)
        }
        guard let gauges = try? await probes.gauges() else { return }
        Gauge(label: MetricName.unknownPayments).record(gauges.unknownPayments)
        let age = gauges.oldestUnknownSince.map { max(0, service.now().timeIntervalSince($0)) } ?? 0
        Gauge(label: MetricName.unknownOldestAge).record(age)
        for state in ["pending", "succeeded", "dead", "canceled"] {
            Gauge(label: MetricName.webhookDeliveries, dimensions: [("state", state)])
                .record(gauges.webhookDeliveries[state] ?? 0)
        }
        for window in DisputePolicy.windows {
            Gauge(label: MetricName.openDisputes, dimensions: [("due", window)]).record(
                gauges.openDisputes[window] ?? 0)
        }
    }
}
