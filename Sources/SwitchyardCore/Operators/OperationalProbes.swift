import Foundation

/// What readiness and the metrics scrape read from the database.
public protocol OperationalProbes: Sendable {
    /// Whether the database answers.
    func ping() async -> Bool
    /// The janitor's backlog and the webhook deliveries by status.
    func gauges() async throws -> StoreGauges
}

/// What the operator's metrics read from the database at scrape time (counts over all tenants).
public struct StoreGauges: Sendable, Equatable {
    /// Payments whose outcome is unknown.
    public var unknownPayments: Int64
    /// When the oldest of them became unknown.
    public var oldestUnknownSince: Date?
    /// Webhook deliveries by status (`pending`, `succeeded`, `failed`, `dead`, …).
    public var webhookDeliveries: [String: Int64]
    /// Disputes not yet decided, by due window (``DisputePolicy/windows``).
    public var openDisputes: [String: Int64]

    public init(
        unknownPayments: Int64, oldestUnknownSince: Date?, webhookDeliveries: [String: Int64],
        openDisputes: [String: Int64] = [:]
    ) {
        self.openDisputes = openDisputes
        self.unknownPayments = unknownPayments
        self.oldestUnknownSince = oldestUnknownSince
        self.webhookDeliveries = webhookDeliveries
    }
}
