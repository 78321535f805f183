import Foundation
import SwitchyardCore

/// The retention deletes over the in-memory repositories, with the PostgreSQL store's rules (see
/// ``RetentionKind``): answered keys from the payment repository, final deliveries and events with no
/// delivery left from the webhook events, handled notifications (a rejected one only once its payment is
/// final or gone) and audit entries. A kind whose repository is not given has nothing to delete.
public struct InMemoryRetention: RetentionRepository {
    let payments: InMemoryPaymentRepository
    let webhooks: InMemoryWebhookEvents?
    let notifications: InMemoryNotificationLog?
    let tenants: InMemoryTenantRepository?

    public init(
        payments: InMemoryPaymentRepository, webhooks: InMemoryWebhookEvents? = nil,
        notifications: InMemoryNotificationLog? = nil, tenants: InMemoryTenantRepository? = nil
    ) {
        self.payments = payments
        self.webhooks = webhooks
        self.notifications = notifications
        self.tenants = tenants
    }

    public func deleteExpired(_ kind: RetentionKind, before cutoff: Date, limit: Int) async throws -> Int {
        switch kind {
        case .idempotencyKeys:
            return payments.deleteAnsweredKeys(before: cutoff, limit: limit)
        case .webhookDeliveries:
            return await webhooks?.deleteFinalDeliveries(before: cutoff, limit: limit) ?? 0
        case .webhookEvents:
            return await webhooks?.deleteUndeliveredEvents(before: cutoff, limit: limit) ?? 0
        case .notifications:
            let payments = self.payments
            return await notifications?.deleteHandled(before: cutoff, limit: limit) { payments.isOpenPayment($0) }
                ?? 0
        case .auditEntries:
            return await tenants?.deleteAudit(before: cutoff, limit: limit) ?? 0
        }
    }
}
