import Foundation
import Hummingbird
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

    /// The body of `POST /admin/v1/payments/review/{kind}/{id}/resolve`.
    struct Resolution: Decodable {
        var note: String
    }

    /// What a resolution answers.
    struct ResolvedBody: Encodable {
        var kind: String
        var id: String
        var tenantId: String
        var note: String
        var resolvedAt: Date

        enum CodingKeys: String, CodingKey {
            case kind, id, note
            case tenantId = "tenant_id"
            case resolvedAt = "resolved_at"
        }
    }

    /// `POST /admin/v1/payments/review/{kind}/{id}/resolve` (`review.resolve`): takes an item out of the
    /// review list with a note (1 to 500 characters), audited with the operator (see
    /// ``ReviewRepository/resolveReview(_:id:note:at:)``); `404` for an item not in the list.
    func registerResolution(on admin: RouterGroup<AppContext>) {
        admin.post("payments/review/:kind/:id/resolve") { request, context in
            guard let kind = context.parameters.get("kind").flatMap(ReviewItemKind.init(rawValue:)),
                let id = context.parameters.get("id"), id.count <= 64
            else { throw CoreError.notFound("review item") }
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(Resolution.self)
            let note = body.note.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...500).contains(note.count) else {
                throw APIError(.invalidField, "note must be 1 to 500 characters", param: "note")
            }
            let now = service.now()
            guard let tenant = try await review.resolveReview(kind, id: id, note: note, at: now) else {
                throw CoreError.notFound("review item")
            }
            try await operators?.auditAction(
                tenant: tenant, action: "review.resolve", target: "\(kind.rawValue):\(id)", details: ["note": note])
            return JSONIO.response(
                .ok,
                ResolvedBody(
                    kind: kind.rawValue, id: id, tenantId: tenant.uuidString.lowercased(), note: note, resolvedAt: now))
        }
    }
}
