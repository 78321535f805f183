import Foundation
import SwitchyardCore

extension PostgresDisputes {
    public func stageEvidence(tenant: UUID, disputeId: String, file: EvidenceFile, id: String, at: Date) async throws {
        try await tenantScoped(tenant) { c in
            // The dispute's row is the lock two requests staging at once take in turn.
            guard try await c.query("SELECT 1 FROM disputes WHERE id = $1 FOR UPDATE", [.text(disputeId)]).first != nil
            else { throw CoreError.notFound("dispute") }
            let staged =
                try await c.query(
                    "SELECT count(*) AS n FROM dispute_evidence WHERE dispute_id = $1 AND submitted_at IS NULL",
                    [.text(disputeId)]
                ).first?.int64("n") ?? 0
            guard staged < DisputeEvidenceRules.maximumFiles else {
                throw CoreError(
                    .evidenceTooLarge,
                    "the dispute holds \(DisputeEvidenceRules.maximumFiles) staged documents, the most it may hold",
                    param: "files")
            }
            try await c.query(
                """
                INSERT INTO dispute_evidence (id, tenant_id, dispute_id, type, name, data, created_at)
                VALUES ($1, $2::uuid, $3, $4, $5, $6::bytea, $7::timestamptz)
                """,
                [
                    .text(id), .uuid(tenant), .text(disputeId), .text(file.type), .text(file.name), .bytea(file.data),
                    .timestamp(at),
                ])
        }
    }

    public func stagedEvidence(tenant: UUID, disputeId: String) async throws -> [EvidenceFile] {
        try await tenantScoped(tenant) { c in
            try await c.query(
                """
                SELECT type, name, data FROM dispute_evidence WHERE dispute_id = $1 AND submitted_at IS NULL
                ORDER BY created_at, id
                """, [.text(disputeId)]
            ).rows.map {
                EvidenceFile(
                    type: try $0.string("type"), name: try $0.string("name"), data: $0.optionalBytes("data") ?? [])
            }
        }
    }

    public func markEvidenceSubmitted(tenant: UUID, disputeId: String, at: Date) async throws {
        try await tenantScoped(tenant) { c in
            try await c.query(
                "UPDATE dispute_evidence SET submitted_at = $2::timestamptz WHERE dispute_id = $1 AND submitted_at IS NULL",
                [.text(disputeId), .timestamp(at)])
        }
    }
}
