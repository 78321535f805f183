import Foundation

extension PlatformPolicy {
    /// What `GET /metrics` shows (the `metrics` section).
    public struct Metrics: Codable, Sendable, Equatable {
        /// Adds a `tenant` label to the payment counters. Off by default: the number of tenants is not
        /// bounded by the operator's configuration, so each tenant would make new series.
        public var tenantLabels: Bool = false

        enum CodingKeys: String, CodingKey {
            case tenantLabels = "tenant_labels"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            tenantLabels = try c.decodeIfPresent(Bool.self, forKey: .tenantLabels) ?? false
        }

        /// The `metrics` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> Metrics {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(Metrics.self, forKey: .metrics)
                ?? Metrics()
        }

        private enum SectionKey: String, CodingKey {
            case metrics
        }
    }
}
