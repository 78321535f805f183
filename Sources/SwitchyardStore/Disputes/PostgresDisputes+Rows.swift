import Foundation
import SwitchyardCore

extension PostgresDisputes {
    static let upsert = """
        INSERT INTO disputes (id, tenant_id, account_id, payment_id, provider_dispute_id, amount, currency, stage,
            status, provider_status, reason, reason_code, evidence_due_by, submission_count, funds, counts_on_payment,
            review, livemode, created_at, updated_at, merchant_response)
        VALUES ($1, $2::uuid, $3::uuid, $4, $5, $6::bigint, $7, $8, $9, $10, $11, $12, $13::timestamptz, $14::integer,
            $15, $16::boolean, $17, $18::boolean, $19::timestamptz, $20::timestamptz, $21::jsonb)
        ON CONFLICT (id) DO UPDATE SET
            stage = EXCLUDED.stage, status = EXCLUDED.status, provider_status = EXCLUDED.provider_status,
            reason = EXCLUDED.reason, reason_code = EXCLUDED.reason_code, evidence_due_by = EXCLUDED.evidence_due_by,
            submission_count = EXCLUDED.submission_count, funds = EXCLUDED.funds, review = EXCLUDED.review,
            updated_at = EXCLUDED.updated_at, merchant_response = EXCLUDED.merchant_response
        """

    static func parameters(_ d: Dispute) throws -> [PGValue] {
        [
            .text(d.id), .uuid(d.tenantId), .uuid(d.accountId), d.paymentId.pg, .text(d.providerDisputeId),
            .int(d.amount), .text(d.currency), .text(d.stage.rawValue), .text(d.status.rawValue),
            d.providerStatus.pg, .text(d.reason.rawValue), d.reasonCode.pg, d.evidenceDueBy.pg,
            .int(Int64(d.submissionCount)), .text(d.funds.rawValue), .bool(d.countsOnPayment), d.review.pg,
            .bool(d.livemode), .timestamp(d.createdAt), .timestamp(d.updatedAt),
            try d.response.map { .json(try StoreJSON.encode($0)) } ?? .null,
        ]
    }

    static func dispute(_ row: PGRow) throws -> Dispute {
        var d = Dispute(
            id: try row.string("id"), tenantId: try row.uuid("tenant_id"), accountId: try row.uuid("account_id"),
            livemode: try row.bool("livemode"), paymentId: row.optionalString("payment_id"),
            providerDisputeId: try row.string("provider_dispute_id"), amount: try row.int64("amount"),
            currency: try row.string("currency"),
            stage: Dispute.Stage(rawValue: try row.string("stage")) ?? .chargeback,
            reason: Dispute.ReasonCategory(rawValue: try row.string("reason")) ?? .general,
            reasonCode: row.optionalString("reason_code"), evidenceDueBy: row.optionalDate("evidence_due_by"),
            createdAt: try row.date("created_at"))
        d.status = Dispute.Status(rawValue: try row.string("status")) ?? .needsResponse
        d.providerStatus = row.optionalString("provider_status")
        d.submissionCount = Int(try row.int64("submission_count"))
        d.funds = Dispute.Funds(rawValue: try row.string("funds")) ?? .withdrawn
        d.countsOnPayment = try row.bool("counts_on_payment")
        d.review = row.optionalString("review")
        d.response = try row.optionalString("merchant_response").map { try StoreJSON.decode(DisputeResponse.self, $0) }
        d.updatedAt = try row.date("updated_at")
        return d
    }
}
