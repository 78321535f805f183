import Foundation
import Metrics
import ProviderKit
import SwitchyardObservability
import Tracing

/// Measures provider calls: a `provider.call` span (attributes `plugin`, `flow`, `outcome`) and the
/// call-duration histogram labelled by plugin, flow and outcome class.
enum ProviderCallObservation {
    static func observe<Result>(
        plugin: String, flow: Flow, outcome: (Result) -> Outcome?, _ body: () async -> Result
    ) async -> Result {
        let started = ContinuousClock.now
        return await withSpan("provider.call", ofKind: .client) { span in
            span.attributes["plugin"] = plugin
            span.attributes["flow"] = flow.rawValue
            let result = await body()
            let kind = outcome(result)?.kind.rawValue ?? "answered"
            span.attributes["outcome"] = kind
            Metrics.Timer(
                label: MetricName.providerCallDuration,
                dimensions: [("plugin", plugin), ("flow", flow.rawValue), ("outcome", kind)]
            ).recordInterval(since: started)
            return result
        }
    }

    /// An access token was fetched from the provider (`ok`: a token came back).
    static func tokenFetched(plugin: String, ok: Bool) {
        Counter(
            label: MetricName.accessTokenFetches, dimensions: [("plugin", plugin), ("result", ok ? "ok" : "failed")]
        ).increment()
    }
}
