import Foundation
import TestWaiting
import Testing

/// A support operator answers a tenant's dispute through the admin API, within its role, audited by name.
@Suite(.serialized)
struct AdminDisputeTests {
    @Test func aSupportOperatorAcceptsATenantsDisputeAndTheAuditNamesThem() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let flows = DisputeEndToEndTests()
            let (id, charge) = try await flows.paidCitconPayment(stack, m)
            _ = try await stack.sandbox.citcon.chargeback(chargeID: charge, status: "Notification of Claim")
            let dispute = try await flows.waitForDispute(stack, m, payment: id) { _ in true }
            let disputeId = try #require(dispute["id"] as? String)
            let support = try await OperatorAccessTests.add(stack, "Sam Support", "support")
            let viewer = try await OperatorAccessTests.add(stack, "Vera Viewer", "viewer")
            let base = "/admin/v1/tenants/\(m.tenantId)/disputes"

            let listed = try await stack.send(.GET, base + "?status=needs_response", token: viewer.token)
            #expect((listed.json["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [disputeId])
            let refused = try await stack.send(.POST, base + "/\(disputeId)/accept", token: viewer.token, json: [:])
            #expect(refused.status == 403 && refused.errorCode == "missing_permission")

            let wrongType = try await stack.send(
                .POST, base + "/\(disputeId)/evidence", token: support.token,
                json: ["files": [["type": "text/html", "name": "x.html", "data": "PGI+"]]])
            #expect(wrongType.status == 415)
            // A receipt staged, then submitted: Citcon has no API for it, so it is recorded to give at Citcon.
            let pdf = Data("%PDF-1.4 receipt".utf8).base64EncodedString()
            let staged = try await stack.send(
                .POST, base + "/\(disputeId)/evidence", token: support.token,
                json: ["files": [["type": "application/pdf", "name": "receipt.pdf", "data": pdf]]])
            #expect(staged.status == 200, "\(staged.json)")
            #expect((staged.json["evidence_details"] as? [String: Any])?["submission_count"] as? Int == 0)
            let submitted = try await stack.send(
                .POST, base + "/\(disputeId)/evidence", token: support.token, json: ["files": [], "submit": true])
            #expect(submitted.status == 200, "\(submitted.json)")
            #expect((submitted.json["response"] as? [String: Any])?["action"] as? String == "evidence")
            #expect((submitted.json["response"] as? [String: Any])?["channel"] as? String == "respond_at_provider")
            // Accepted under an Idempotency-Key: a retry with the key replays the answer and accepts nothing again.
            let key = ["Idempotency-Key": "accept-\(disputeId)"]
            let accepted = try await stack.send(
                .POST, base + "/\(disputeId)/accept", token: support.token, json: [:], headers: key)
            #expect(accepted.status == 200)
            #expect((accepted.json["response"] as? [String: Any])?["channel"] as? String == "respond_at_provider")
            let retried = try await stack.send(
                .POST, base + "/\(disputeId)/accept", token: support.token, json: [:], headers: key)
            #expect(retried.status == 200 && retried.body == accepted.body)
            #expect(retried.headers.contains { $0.0.lowercased() == "idempotent-replayed" && $0.1 == "true" })
            let reused = try await stack.send(
                .POST, base + "/\(disputeId)/accept", token: support.token, json: ["note": "again"], headers: key)
            #expect(reused.status == 409, "\(reused.json)")
            #expect(
                try await stack.send(
                    .POST, "/admin/v1/tenants/\(UUID())/disputes/\(disputeId)/accept",
                    token: support.token, json: [:]
                ).status == 404)

            let audit = try await stack.send(.GET, "/admin/v1/audit?operator=\(support.id)", token: viewer.token)
            let entry = (audit.json["data"] as? [[String: Any]])?.first { $0["action"] as? String == "dispute.accept" }
            #expect(entry?["actor"] as? String == "operator:Sam Support")
            #expect(entry?["target"] as? String == disputeId)
            let actions = ((audit.json["data"] as? [[String: Any]]) ?? []).compactMap { $0["action"] as? String }
            #expect(actions.contains("dispute.evidence_stage") && actions.contains("dispute.evidence_submit"))
            #expect((entry?["tenantId"] as? String)?.lowercased() == m.tenantId.lowercased())
            #expect(actions.filter { $0 == "dispute.accept" }.count == 1)
        }
    }
}
