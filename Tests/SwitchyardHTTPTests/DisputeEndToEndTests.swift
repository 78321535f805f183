import Foundation
import NIOHTTP1
import ProviderSandbox
import TestWaiting
import Testing

/// Disputes from the providers' notifications to the merchant's webhook and API: the sandbox charges a
/// paid payment back, the plugin maps its signed notification, Switchyard stores the dispute once, holds its
/// funds on the payment and tells the merchant.
@Suite(.serialized) struct DisputeEndToEndTests {
    /// A Citcon payment the customer paid; its id and Citcon's charge id.
    func paidCitconPayment(_ stack: TestStack, _ m: TestStack.Merchant, amount: Int = 5000) async throws -> (
        id: String, charge: String
    ) {
        let flows = CitconEndToEndTests()
        let created = try await flows.payment(stack, m, amount: amount)
        let id = try #require(created["id"] as? String)
        _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(created), method: "alipay")
        let paid = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
        let attempts = try #require(paid["attempts"] as? [[String: Any]])
        return (id, try #require(attempts.last?["provider_payment_id"] as? String))
    }

    /// The payment's disputes once `condition` holds on the first.
    func waitForDispute(
        _ stack: TestStack, _ m: TestStack.Merchant, payment: String, until condition: @escaping ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        try await Poll.value("dispute of \(payment)", within: .seconds(15), every: .milliseconds(100)) {
            let list = try await stack.send(.GET, "/v1/disputes?payment=\(payment)", token: m.apiKey).json
            guard let first = (list["data"] as? [[String: Any]])?.first, condition(first) else { return nil }
            return first
        }
    }

    @Test func aCitconChargebackFromClaimToWon() async throws {
        try await TestStack.with(policy: WebhookTests.trustLoopback) { stack in
            try await WebhookReceiver.with { receiver in
                let m = try await stack.merchant()
                let endpoint = try await stack.send(
                    .POST, "/v1/webhook-endpoints", token: m.apiKey,
                    json: ["url": receiver.url, "event_types": ["dispute.*"]])
                try #require(endpoint.status == 201)
                let (id, charge) = try await paidCitconPayment(stack, m)

                _ = try await stack.sandbox.citcon.chargeback(chargeID: charge, status: "Notification of Claim")
                let opened = try await waitForDispute(stack, m, payment: id) {
                    $0["status"] as? String == "needs_response"
                }
                #expect(opened["amount"] as? Int == 5000)
                #expect(opened["currency"] as? String == "USD")
                #expect(opened["stage"] as? String == "chargeback")
                #expect(opened["funds"] as? String == "withdrawn")
                #expect(opened["provider_status"] as? String == "Notification of Claim")
                let disputeId = try #require(opened["id"] as? String)
                #expect(disputeId.hasPrefix("dp_"))

                // The money: the payment holds the disputed amount, and a refund of it is refused.
                let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
                #expect(payment["amount_disputed"] as? Int == 5000)
                let refund = try await stack.send(
                    .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 1])
                #expect(refund.status == 422)
                #expect(refund.errorCode == "refund_exceeds_undisputed")
                let whole = try await stack.send(.POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: [:])
                #expect(whole.status == 422)
                #expect(whole.errorCode == "refund_exceeds_undisputed")

                // Citcon has no API to answer: the acceptance is recorded to give at Citcon.
                let accept = try await stack.send(
                    .POST, "/v1/disputes/\(disputeId)/accept", token: m.apiKey, json: [:],
                    headers: ["Idempotency-Key": "accept-\(disputeId)"])
                #expect(accept.status == 200)
                #expect((accept.json["response"] as? [String: Any])?["channel"] as? String == "respond_at_provider")
                #expect(accept.json["status"] as? String == "needs_response")

                _ = try await stack.sandbox.citcon.chargeback(chargeID: charge, status: "Information Supplied")
                _ = try await waitForDispute(stack, m, payment: id) { $0["status"] as? String == "under_review" }
                _ = try await stack.sandbox.citcon.chargeback(chargeID: charge, status: "Won")
                let won = try await waitForDispute(stack, m, payment: id) { $0["status"] as? String == "won" }
                #expect(won["funds"] as? String == "reinstated")
                let after = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
                #expect(after["amount_disputed"] as? Int == 0)
                // The ledger: the withdrawal and the reinstatement, newest first.
                let ledger = try await stack.send(.GET, "/v1/ledger_entries?source=\(disputeId)", token: m.apiKey)
                let entries = try #require(ledger.json["data"] as? [[String: Any]])
                #expect(
                    entries.compactMap { $0["type"] as? String } == ["dispute_reinstatement", "dispute_withdrawal"])
                #expect(entries.compactMap { $0["amount"] as? Int } == [5000, -5000])
                #expect(
                    entries.allSatisfy { $0["payment"] as? String == id && $0["object"] as? String == "ledger_entry" })
                let badType = try await stack.send(.GET, "/v1/ledger_entries?type=fee", token: m.apiKey)
                #expect(badType.status == 400)
                #expect(badType.json["error"].flatMap { ($0 as? [String: Any])?["param"] as? String } == "type")

                // The merchant heard every step, signed (deliveries run in parallel, so not necessarily in order).
                let types = [
                    "dispute.created", "dispute.funds_withdrawn", "dispute.updated", "dispute.closed",
                    "dispute.funds_reinstated",
                ]
                let deliveries = try await receiver.wait { $0.count >= types.count }
                #expect(deliveries.map(\.type).sorted() == types.sorted())
                let secret = try #require(endpoint.json["secret"] as? String)
                #expect(deliveries.allSatisfy { $0.verifies(secret: secret) })
                let closed = deliveries.first { $0.type == "dispute.closed" }
                #expect(
                    ((closed?.json["data"] as? [String: Any])?["object"] as? [String: Any])?["status"] as? String
                        == "won")

                // A decided dispute cannot be answered any more.
                let late = try await stack.send(
                    .POST, "/v1/disputes/\(disputeId)/accept", token: m.apiKey, json: [:],
                    headers: ["Idempotency-Key": "accept-late-\(disputeId)"])
                #expect(late.status == 409)
                #expect(late.errorCode == "dispute_closed")
            }
        }
    }

    @Test func aResentChargebackIsAcknowledgedAndStoredOnce() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let (id, charge) = try await paidCitconPayment(stack, m)
            _ = try await stack.sandbox.citcon.chargeback(chargeID: charge, status: "Notification of Claim")
            _ = try await waitForDispute(stack, m, payment: id) { _ in true }
            // The same status again is a new IPN (its times differ) that changes nothing.
            _ = try await stack.sandbox.citcon.chargeback(chargeID: charge, status: "Notification of Claim")
            try await Poll.until("both IPNs acknowledged", within: .seconds(15), every: .milliseconds(100)) {
                await stack.sandbox.citcon.notificationAttempts().filter { $0.statusCode == 200 }.count >= 3
            }
            let list = try await stack.send(.GET, "/v1/disputes?payment=\(id)", token: m.apiKey).json
            #expect((list["data"] as? [[String: Any]])?.count == 1)
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(payment["amount_disputed"] as? Int == 5000)
        }
    }

    @Test func anAntomDisputeAcceptedThroughTheAPI() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant()
            let (paid, _, _) = try await AntomEndToEndTests().firstPayment(stack, m, customer: "cust-dispute")
            let id = try #require(paid["id"] as? String)
            let attempts = try #require(paid["attempts"] as? [[String: Any]])
            let antomPaymentId = try #require(attempts.last?["provider_payment_id"] as? String)
            let opened = try await stack.sandbox.antom.openDispute(paymentId: antomPaymentId, amount: 900)
            let dispute = try await waitForDispute(stack, m, payment: id) {
                $0["status"] as? String == "needs_response"
            }
            #expect(dispute["amount"] as? Int == 900)
            #expect(dispute["reason"] as? String == "product_unacceptable")
            #expect(dispute["reason_code"] as? String == "4853")
            #expect((dispute["evidence_details"] as? [String: Any])?["due_by"] is String)
            let disputeId = try #require(dispute["id"] as? String)

            // Evidence of a refused type names the limit, and nothing reaches Antom.
            let refused = try await stack.send(
                .POST, "/v1/disputes/\(disputeId)/evidence", token: m.apiKey,
                json: ["files": [["type": "text/html", "name": "x.html", "data": "PGI+"]], "submit": true],
                headers: ["Idempotency-Key": "ev-\(disputeId)"])
            #expect(refused.status == 415)
            #expect(refused.errorCode == "evidence_type_refused")
            #expect(refused.json["error"].flatMap { ($0 as? [String: Any])?["param"] as? String } == "files[0].type")

            // The merchant accepts through Switchyard; the plugin calls Antom's acceptDispute.
            let accept = try await stack.send(
                .POST, "/v1/disputes/\(disputeId)/accept", token: m.apiKey, json: [:],
                headers: ["Idempotency-Key": "accept-\(disputeId)"])
            #expect(accept.status == 200, "\(String(decoding: accept.body, as: UTF8.self))")
            #expect(accept.json["status"] as? String == "lost")
            #expect((accept.json["response"] as? [String: Any])?["channel"] as? String == "provider_api")
            #expect(await stack.sandbox.antom.dispute(id: opened.disputeId)?.status == "ACCEPTED")
            // The same key replays the answer; Antom's DISPUTE_ACCEPTED notification changes nothing more.
            let replay = try await stack.send(
                .POST, "/v1/disputes/\(disputeId)/accept", token: m.apiKey, json: [:],
                headers: ["Idempotency-Key": "accept-\(disputeId)"])
            #expect(replay.status == 200)
            #expect(replay.json["status"] as? String == "lost")
            try await Poll.until("DISPUTE_ACCEPTED acknowledged", within: .seconds(15), every: .milliseconds(100)) {
                await stack.sandbox.antom.notificationAttempts().contains {
                    $0.subject == opened.disputeId && $0.acknowledged && $0.attempt >= 1
                }
            }
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(payment["amount_disputed"] as? Int == 900)
            let full = try await stack.send(
                .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 1500])
            #expect(full.errorCode == "refund_exceeds_undisputed")
            let rest = try await stack.send(.POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 600])
            #expect(rest.status == 201)
        }
    }

    @Test func aWorldlineDirectChargebackIsRecordedToAnswerByLetter() async throws {
        try await TestStack.with { stack in
            let m = try await stack.worldlineMerchant()
            let flows = WorldlineEndToEndTests()
            let created = try await flows.payment(stack, m, amount: 4000, capture: "manual")
            let id = try #require(created["id"] as? String)
            let completed = try await flows.complete(stack, m, created, card: WorldlineDirectTestCard.authorised)
            #expect(completed.json["status"] as? String == "authorized")
            let captured = try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:])
            #expect(captured.json["status"] as? String == "succeeded")
            let attempts = try #require(captured.json["attempts"] as? [[String: Any]])
            let worldlineId = try #require(attempts.last?["provider_payment_id"] as? String)

            #expect(await stack.sandbox.worldlineDirect.chargeback(paymentID: worldlineId) != nil)
            let dispute = try await waitForDispute(stack, m, payment: id) {
                $0["status"] as? String == "needs_response"
            }
            #expect(dispute["amount"] as? Int == 4000)
            #expect(dispute["provider_status"] as? String == "CHARGEBACKED")
            // The payment itself stays succeeded: the chargeback is a dispute, not a new payment status.
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(payment["status"] as? String == "succeeded")
            #expect(payment["amount_disputed"] as? Int == 4000)
            let disputeId = try #require(dispute["id"] as? String)
            let evidence = try await stack.send(
                .POST, "/v1/disputes/\(disputeId)/evidence", token: m.apiKey,
                json: [
                    "files": [["type": "application/pdf", "name": "letter.pdf", "data": "JVBERi0xLjQK"]],
                    "submit": true,
                ],
                headers: ["Idempotency-Key": "ev-\(disputeId)"])
            #expect(evidence.status == 200)
            #expect((evidence.json["response"] as? [String: Any])?["channel"] as? String == "respond_at_provider")
            #expect((evidence.json["response"] as? [String: Any])?["action"] as? String == "evidence")
        }
    }
}
