import Foundation
import SwitchyardCore

/// The operator's review views in memory: payments for review come from the payment repository; account
/// summaries, rejected notifications and open operations are what the test puts in.
public actor InMemoryReview: ReviewRepository {
    private let payments: any PaymentRepository
    private var summaries: [AccountSummary] = []
    private var notifications: [RejectedNotification] = []
    private var operations: [OperationForReview] = []

    public init(payments: any PaymentRepository) {
        self.payments = payments
    }

    /// Sets what the review views list besides payments.
    public func set(
        accounts: [AccountSummary] = [], notifications: [RejectedNotification] = [],
        operations: [OperationForReview] = []
    ) {
        summaries = accounts
        self.notifications = notifications
        self.operations = operations
    }

    public func accountSummaries() async throws -> [AccountSummary] { summaries }

    public func paymentsForReview(tenant: UUID?, limit: Int) async throws -> [Payment] {
        try await payments.paymentsForReview(tenant: tenant, limit: limit)
    }

    public func notificationsForReview(tenant: UUID?, limit: Int) async throws -> [RejectedNotification] {
        Array(notifications.filter { tenant == nil || $0.tenantId == tenant }.prefix(max(0, limit)))
    }

    public func operationsForReview(tenant: UUID?, limit: Int) async throws -> [OperationForReview] {
        Array(operations.filter { tenant == nil || $0.tenantId == tenant }.prefix(max(0, limit)))
    }

    public func resolveReview(_ kind: ReviewItemKind, id: String, note: String, at: Date) async throws -> UUID? {
        switch kind {
        case .payment:
            return try await payments.paymentsForReview(tenant: nil, limit: 1_000).first { $0.id == id }?.tenantId
        case .notification:
            guard let index = notifications.firstIndex(where: { "\($0.id)" == id }) else { return nil }
            return notifications.remove(at: index).tenantId
        case .refund, .capture:
            guard let index = operations.firstIndex(where: { $0.id == id && $0.kind.rawValue == kind.rawValue }) else {
                return nil
            }
            return operations.remove(at: index).tenantId
        }
    }
}
