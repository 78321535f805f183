import Foundation
import Logging
import SwitchyardStore
import Testing

/// A support operator takes items out of the review list with a note: a rejected notification is marked
/// resolved, a payment is handed back to the janitor; each resolution is audited with the note.
@Suite(.serialized)
struct ReviewResolutionTests {
    @Test func aSupportOperatorResolvesReviewItemsWithANote() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let (id, attempt, charge) = try await NotificationReplayTests.paidPayment(stack, m)
            let body = NotificationReviewTests.signedIPN([
                ("id", charge.id), ("transaction_type", "charge"), ("reference", attempt), ("amount", "1234"),
                ("currency", "USD"), ("status", "success"), ("amount_captured", "999999"),
            ])
            #expect(try await NotificationReplayTests.post(stack, m, body).status == 200)
            let support = try await OperatorAccessTests.add(stack, "Sam Support", "support")
            let viewer = try await OperatorAccessTests.add(stack, "Vera Viewer", "viewer")
            let review = try await stack.send(.GET, "/admin/v1/payments/review", token: viewer.token)
            let notification = try #require(
                (review.json["notifications"] as? [[String: Any]])?.first?["notification_id"] as? Int)
            let path = "/admin/v1/payments/review/notification/\(notification)/resolve"

            let refused = try await stack.send(.POST, path, token: viewer.token, json: ["note": "seen"])
            #expect(refused.status == 403 && refused.errorCode == "missing_permission")
            let blank = try await stack.send(.POST, path, token: support.token, json: ["note": "  "])
            #expect(blank.status == 400 && (blank.json["error"] as? [String: Any])?["param"] as? String == "note")
            let note = "Citcon confirmed the capture was a reporting error (ticket 4711)"
            let resolved = try await stack.send(.POST, path, token: support.token, json: ["note": note])
            #expect(resolved.status == 200 && resolved.json["note"] as? String == note)
            #expect(try await stack.send(.POST, path, token: support.token, json: ["note": note]).status == 404)
            let after = try await stack.send(.GET, "/admin/v1/payments/review", token: viewer.token)
            #expect((after.json["notifications"] as? [[String: Any]])?.isEmpty == true)
            // The provider sends it again: acknowledged, and it stays resolved.
            #expect(try await NotificationReplayTests.post(stack, m, body).status == 200)
            let again = try await stack.send(.GET, "/admin/v1/payments/review", token: viewer.token)
            #expect((again.json["notifications"] as? [[String: Any]])?.isEmpty == true)

            // A payment the janitor gave up on goes back to it.
            try await PGPool.scoped(connectionString: stack.adminURL, logger: Logger(label: "test")) { pool in
                try await pool.withConnection { c in
                    _ = try await c.query(
                        "UPDATE payments SET review_required = true, sync_count = 7 WHERE id = $1", [.text(id)])
                }
            }
            let listed = try await stack.send(.GET, "/admin/v1/payments/review", token: viewer.token)
            #expect((listed.json["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            let handedBack = try await stack.send(
                .POST, "/admin/v1/payments/review/payment/\(id)/resolve", token: support.token,
                json: ["note": "asked the janitor to look again"])
            #expect(handedBack.status == 200)
            let cleared = try await stack.send(.GET, "/admin/v1/payments/review", token: viewer.token)
            #expect((cleared.json["data"] as? [[String: Any]])?.isEmpty == true)
            #expect(
                try await stack.send(
                    .POST, "/admin/v1/payments/review/refund/re_none/resolve", token: support.token,
                    json: ["note": "x"]
                ).status == 404)
            #expect(
                try await stack.send(
                    .POST, "/admin/v1/payments/review/other/x/resolve", token: support.token, json: ["note": "x"]
                ).status == 404)

            let audit = try await stack.send(.GET, "/admin/v1/audit?operator=\(support.id)", token: viewer.token)
            let entries = ((audit.json["data"] as? [[String: Any]]) ?? []).filter {
                $0["action"] as? String == "review.resolve"
            }
            #expect(entries.count == 2)
            #expect(entries.contains { ($0["details"] as? [String: String])?["note"] == note })
        }
    }
}
