import Foundation
import SwitchyardCore

extension OrchestrationController {
    /// The review list: payments still unknown, or still waiting for the customer's action, at the horizon
    /// (`data`), verified notifications
    /// whose report the payment's state rejected (`notifications`), and refunds and captures the janitor
    /// could not resolve (`operations`). Every entry names its `kind`.
    struct ReviewList: Encodable {
        var data: [ReviewBody]
        var notifications: [NotificationReviewBody]
        var operations: [OperationReviewBody]
    }

    struct NotificationReviewBody: Encodable {
        var kind = "notification_rejected"
        var notificationId: Int64
        var tenantId: String
        var providerAccountId: String
        var paymentId: String?
        var reason: String
        var message: String?
        var at: Date

        enum CodingKeys: String, CodingKey {
            case kind, reason, message, at
            case notificationId = "notification_id"
            case tenantId = "tenant_id"
            case providerAccountId = "provider_account_id"
            case paymentId = "payment_id"
        }
    }

    struct OperationReviewBody: Encodable {
        var kind: String
        var id: String
        var tenantId: String
        var paymentId: String
        var amount: Int64?
        var status: String
        var reason: String
        var syncs: Int
        var at: Date

        enum CodingKeys: String, CodingKey {
            case kind, id, amount, status, reason, syncs, at
            case tenantId = "tenant_id"
            case paymentId = "payment_id"
        }
    }

    func reviewList(_ payments: [ReviewBody], tenant: UUID?) async throws -> ReviewList {
        let notifications = try await review.notificationsForReview(tenant: tenant, limit: 200).map { n in
            NotificationReviewBody(
                notificationId: n.id, tenantId: n.tenantId.uuidString.lowercased(),
                providerAccountId: n.accountId.uuidString.lowercased(), paymentId: n.paymentId, reason: n.code,
                message: n.message, at: n.receivedAt)
        }
        let operations = try await review.operationsForReview(tenant: tenant, limit: 200).map { o in
            OperationReviewBody(
                kind: o.kind.rawValue, id: o.id, tenantId: o.tenantId.uuidString.lowercased(), paymentId: o.paymentId,
                amount: o.amount, status: o.status, reason: o.reason, syncs: o.syncs, at: o.createdAt)
        }
        return ReviewList(data: payments, notifications: notifications, operations: operations)
    }
}
