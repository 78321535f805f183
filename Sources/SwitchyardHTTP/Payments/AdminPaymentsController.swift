import Foundation
import Hummingbird
import SwitchyardCore

/// The actions a support operator takes on a tenant's payment (`payments.act`):
/// `POST /admin/v1/tenants/{tenant}/payments/{id}/capture`, `…/refunds`, `…/cancel` and `…/sync`, with the
/// merchant API's bodies, rules and answers, an optional `Idempotency-Key` (keys apart from the merchant's),
/// and an audit entry naming the operator.
struct AdminPaymentsController: Sendable {
    let service: PaymentService
    let tenants: TenantAdminService
    let operators: (any OperatorRepository)?
    let bodyLimit: Int

    func register(on admin: RouterGroup<AppContext>, idempotency: IdempotencyGate) {
        let group = admin.group("tenants/:tenant/payments")
        group.post(":id/capture") { request, context in
            let (tenant, id) = try await target(context)
            return try await idempotency.run(request, context, resume: .paymentState, tenant: tenant) {
                json, _, contact in
                let body = try json.decode(PaymentsController.AmountBody.self)
                let record = try await service.capture(
                    tenant: tenant, paymentId: id, amount: body.amount?.value, contact: &contact)
                try await audit(tenant, "payment.capture", id, ["amount": "\(record.payment.amountCaptured)"])
                return try .payment(record, now: service.now())
            }
        }
        group.post(":id/cancel") { request, context in
            let (tenant, id) = try await target(context)
            return try await idempotency.run(request, context, resume: .paymentState, tenant: tenant) {
                json, _, contact in
                try json.noFields()
                let record = try await service.cancel(tenant: tenant, paymentId: id, contact: &contact)
                try await audit(tenant, "payment.cancel", id, ["status": record.payment.status.rawValue])
                return try .payment(record, now: service.now())
            }
        }
        group.post(":id/refunds") { request, context in
            let (tenant, id) = try await target(context)
            return try await idempotency.run(request, context, resume: .createdRefund, tenant: tenant) {
                json, scope, _ in
                let body = try json.decode(PaymentsController.RefundBody.self)
                let refund = try await service.refund(
                    tenant: tenant, paymentId: id, amount: body.amount?.value, reason: body.reason, idempotency: scope,
                    metadata: try Metadata(body.metadata ?? [:]), description: body.description)
                try await audit(
                    tenant, "payment.refund", id,
                    ["refund": refund.id, "amount": "\(refund.amount)", "status": refund.status.rawValue])
                return try .refund(refund)
            }
        }
        group.post(":id/sync") { request, context in
            let (tenant, id) = try await target(context)
            try await JSONIO.noFields(request, context, limit: bodyLimit)
            let record = try await service.sync(tenant: tenant, paymentId: id)
            try await audit(tenant, "payment.sync", id, ["status": record.payment.status.rawValue])
            return JSONIO.response(.ok, PaymentResource(record, now: service.now()))
        }
    }

    /// The tenant and the payment named in the path; `404` when either is not there.
    private func target(_ context: AppContext) async throws -> (UUID, String) {
        let tenant = try await tenants.tenant(in: context).id
        let id = try PaymentsController.paymentId(context)
        _ = try await service.get(tenant: tenant, paymentId: id)
        return (tenant, id)
    }

    private func audit(_ tenant: UUID, _ action: String, _ id: String, _ details: [String: String]) async throws {
        try await operators?.auditAction(tenant: tenant, action: action, target: id, details: details)
    }
}
