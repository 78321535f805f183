import Foundation
import Metrics
import Synchronization

/// Records payment lifecycle counters with bounded labels.
public enum PaymentMetrics {
    /// Whether a `tenant` label is added (the policy's `metrics.tenant_labels`); off by default.
    public static var tenantLabels: Bool {
        get { flag.withLock { $0 } }
        set { flag.withLock { $0 = newValue } }
    }

    private static let flag = Mutex(false)

    /// A payment was created; `plugin` is the plugin of its last attempt ("none" when no provider was
    /// tried), `outcome` the outcome class of that attempt.
    public static func created(plugin: String?, outcome: String?, status: String, tenant: UUID) {
        Counter(
            label: MetricName.paymentsCreated,
            dimensions: labels(
                [("plugin", plugin ?? "none"), ("outcome", outcome ?? "none"), ("status", status)], tenant: tenant)
        ).increment()
    }

    /// A payment reached a final status (`succeeded`, `failed`, `canceled`).
    public static func finished(method: String, status: String, tenant: UUID) {
        Counter(
            label: MetricName.paymentsFinished,
            dimensions: labels([("method", method), ("status", status)], tenant: tenant)
        ).increment()
    }

    /// A refund was requested and answered with `status`.
    public static func refunded(status: String, tenant: UUID) {
        Counter(label: MetricName.refunds, dimensions: labels([("status", status)], tenant: tenant)).increment()
    }

    static func labels(_ base: [(String, String)], tenant: UUID) -> [(String, String)] {
        tenantLabels ? base + [("tenant", tenant.uuidString.lowercased())] : base
    }
}
