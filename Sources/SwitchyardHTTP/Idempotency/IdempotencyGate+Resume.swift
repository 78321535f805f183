import Foundation
import HTTPTypes
import Hummingbird
import SwitchyardCore

/// What a request that takes over an `Idempotency-Key` after its owner's lease ran out answers, per route.
enum IdempotentResume: Sendable {
    /// Run the request again (nothing it could have done is worth protecting, e.g. a vaulting session).
    case fresh
    /// A payment create: the payment the first request created, synced with its provider; a fresh create
    /// when the first request created none.
    case createdPayment
    /// A refund: the refund the first request recorded, after syncing its payment; a fresh refund when the
    /// first request recorded none.
    case createdRefund
    /// An operation on a payment (capture, complete, cancel, session renewal) whose effect may have happened
    /// and cannot be identified: the payment as it is now, synced, and the operation is not repeated.
    case paymentState
}

extension IdempotencyGate {
    /// The answer of a request that took a key over, resuming as `resume` says, or nil to run the request
    /// as a fresh one.
    func resumedAnswer(
        _ resume: IdempotentResume, takeover: IdempotencyTakeover?, tenant: UUID, _ context: AppContext
    ) async throws -> IdempotentReply? {
        guard let takeover else { return nil }
        switch resume {
        case .fresh:
            return nil
        case .createdPayment:
            guard let id = takeover.resourceId else { return nil }
            let record = try await synced(tenant, id)
            return IdempotentReply(
                .createdPayment(record.payment.id), try Encoded(.created, PaymentResource(record, now: service.now())))
        case .createdRefund:
            let paymentId = try PaymentsController.paymentId(context)
            guard let refundId = takeover.resourceId else { return nil }
            _ = try await synced(tenant, paymentId)
            guard let refund = try await payments.refund(id: refundId), refund.tenantId == tenant,
                refund.paymentId == paymentId
            else { return nil }
            return try .refund(refund)
        case .paymentState:
            return try .payment(
                try await synced(tenant, try PaymentsController.paymentId(context)), now: service.now())
        }
    }

    /// The payment after asking its provider; as stored when that is not possible (no attempt yet, the
    /// provider unreachable).
    private func synced(_ tenant: UUID, _ paymentId: String) async throws -> PaymentRecord {
        if let record = try? await service.sync(tenant: tenant, paymentId: paymentId) { return record }
        return try await service.get(tenant: tenant, paymentId: paymentId)
    }
}
