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
}
