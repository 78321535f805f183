import Foundation
import ProviderSandbox
import SwitchyardCrypto
import Testing

@Suite struct WorldlineDirectWebhookTests {
    @Test func signatureRuleMatchesThePublishedVector() {
        let body = #"{"apiVersion":"v1","id":"evt1","type":"payment.captured"}"#
        let webhook = WLWebhook(
            signature: "Rv+PdzasZvdNyQcC/dkfIrT2rCS/lDNa1cTAqlxPGto=", keyId: nil, body: Array(body.utf8))
        #expect(webhook.verifies(secret: "webhook-secret"))
    }

    @Test func stateChangesSendSignedWebhooks() async throws {
        try await withWebhookReceiver { url, inbox in
            try await withWorldlineSandbox(webhookURL: url) { sandbox in
                let auth = try await sandbox.m1.createPayment(
                    card: WorldlineDirectTestCard.authorised, amount: 900, mode: "FINAL_AUTHORIZATION")
                let id = try #require(auth.payment["id"] as? String)
                _ = try await sandbox.m1.call("POST", "payments/\(id)/capture", json: [String: Any]())
                _ = try await sandbox.m1.call("POST", "payments/\(id)/refund", json: [String: Any]())
                _ = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.declined)
                try await eventually("webhooks delivered") { await inbox.received.count == 4 }
                let all = await inbox.received
                #expect(
                    Set(all.compactMap(\.type))
                        == ["payment.pending_capture", "payment.captured", "refund.refunded", "payment.rejected"])
                for webhook in all {
                    #expect(webhook.verifies(secret: "webhook-secret"))
                    #expect(!webhook.verifies(secret: "webhook-secret-2"))
                    #expect(webhook.keyId == "WHKEY1")
                    #expect(webhook.object["apiVersion"] as? String == "v1")
                    #expect(webhook.object["merchantId"] as? String == "MERCH1")
                }
                let captured = try #require(await inbox.ofType("payment.captured").first)
                #expect((captured.object["payment"] as? [String: Any])?["id"] as? String == id)
                let refund = try #require(await inbox.ofType("refund.refunded").first)
                #expect((refund.object["refund"] as? [String: Any])?["status"] as? String == "REFUNDED")
            }
        }
    }

    @Test func badSignatureFaultSendsAWebhookThatDoesNotVerify() async throws {
        try await withWebhookReceiver { url, inbox in
            try await withWorldlineSandbox(webhookURL: url) { sandbox in
                await sandbox.server.worldlineDirect.addFaults([
                    SandboxFault(kind: .badSignature, merchant: "MERCH1", count: 1)
                ])
                _ = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.authorised, amount: 100)
                try await eventually("first webhook") { await inbox.received.count == 1 }
                _ = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.authorised, amount: 200)
                try await eventually("second webhook") { await inbox.received.count == 2 }
                let all = await inbox.received
                #expect(!all[0].verifies(secret: "webhook-secret"))
                #expect(all[1].verifies(secret: "webhook-secret"))
            }
        }
    }

    @Test func perPaymentWebhookURLOverridesTheMerchantDefault() async throws {
        try await withWebhookReceiver { url, inbox in
            try await withWorldlineSandbox { sandbox in
                _ = try await sandbox.m1.createPayment(card: WorldlineDirectTestCard.authorised, webhookURL: url)
                try await eventually("webhook") { await inbox.received.count == 1 }
                try await eventually("attempt recorded") {
                    await sandbox.server.worldlineDirect.notificationAttempts().first?.acknowledged == true
                }
                #expect(await inbox.received.first?.verifies(secret: "webhook-secret") == true)
            }
        }
    }
}
