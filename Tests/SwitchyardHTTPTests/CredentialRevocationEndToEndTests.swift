import Foundation
import ProviderSandbox
import Testing

/// `DELETE /v1/customers/{customer}/payment-methods/{pm}` end to end: revoked at the provider where its plugin
/// can (Worldline Sips deletes the wallet card), and always in Switchyard, whatever the provider answered.
@Suite(.serialized)
struct CredentialRevocationEndToEndTests {
    static let deletePath = "wallet/deletePaymentMean"

    /// Vaults a Sips card for `customer`; returns the active `pm_…`, its wallet and its payment mean.
    static func vaultSipsCard(_ stack: TestStack, _ m: TestStack.Merchant, customer: String) async throws
        -> (pm: String, wallet: String, mean: String)
    {
        let vaulting = try await stack.send(.POST, "/v1/customers/\(customer)/vaulting-sessions", token: m.apiKey)
        try #require(vaulting.status == 201, "\(String(decoding: vaulting.body, as: UTF8.self))")
        let pm = try #require(vaulting.json["id"] as? String)
        let session = try #require((vaulting.json["next_action"] as? [String: Any])?["data"] as? [String: Any])
        let wallet = try #require(session["merchantWalletId"] as? String)
        let added = try await SipsEndToEndTests.app(
            stack, "addCard", session: session,
            ["cardNumber": SipsEndToEndTests.visa, "cardExpiryDate": "203011", "paymentMeanAlias": "card"])
        let mean = try #require(added["paymentMeanId"] as? String)
        let synced = try await stack.send(
            .POST, "/v1/customers/\(customer)/payment-methods/\(pm)/sync", token: m.apiKey)
        try #require(synced.json["status"] as? String == "active", "\(synced.json)")
        return (pm, wallet, mean)
    }

    static func means(_ stack: TestStack, wallet: String) async -> [String] {
        await stack.sandbox.sips.wallet(merchantId: TestStack.sipsMerchant.merchantId, merchantWalletId: wallet)?
            .paymentMeans.map(\.paymentMeanId) ?? []
    }

    static func payWith(_ stack: TestStack, _ m: TestStack.Merchant, customer: String, pm: String) async throws
        -> TestStack.Reply
    {
        try await stack.send(
            .POST, "/v1/payments", token: m.apiKey,
            json: [
                "amount": 1200, "currency": "EUR", "country": "FR", "reference": "after-\(pm)", "customer": customer,
                "payment_method": pm,
            ])
    }

    @Test func deletingASipsCardRemovesItFromTheWalletAndASecondDeleteCallsNothing() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            let (pm, wallet, mean) = try await Self.vaultSipsCard(stack, m, customer: "cust-r")
            #expect(await Self.means(stack, wallet: wallet) == [mean])

            let deleted = try await stack.send(.DELETE, "/v1/customers/cust-r/payment-methods/\(pm)", token: m.apiKey)
            #expect(deleted.status == 200, "\(String(decoding: deleted.body, as: UTF8.self))")
            #expect(deleted.json["status"] as? String == "revoked")
            let failure = try #require(deleted.json["failure"] as? [String: Any])
            #expect(failure["code"] as? String == "revoked_by_merchant")
            #expect((failure["message"] as? String)?.contains("the provider revoked it too") == true, "\(failure)")
            #expect(await Self.means(stack, wallet: wallet).isEmpty, "the card is gone from the Sips wallet")
            #expect(!String(decoding: deleted.body, as: UTF8.self).contains("\(wallet):\(mean)"))

            let shown = try await stack.send(.GET, "/v1/customers/cust-r/payment-methods/\(pm)", token: m.apiKey)
            #expect(shown.json["status"] as? String == "revoked")
            // Each status change was announced in its transaction, the token never.
            let events = try await stack.send(.GET, "/v1/events?object=\(pm)", token: m.apiKey)
            let types = (events.json["data"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
            #expect(types == ["payment_method.revoked", "payment_method.active", "payment_method.pending"], "\(types)")
            #expect(!String(decoding: events.body, as: UTF8.self).contains("\(wallet):\(mean)"))
            let refused = try await Self.payWith(stack, m, customer: "cust-r", pm: pm)
            #expect(refused.status == 422)
            #expect(refused.errorCode == "payment_method_unusable")

            // A second DELETE answers the same and makes no provider call: the armed fault stays unused.
            try await stack.sandbox.sips.respond99(service: Self.deletePath)
            let again = try await stack.send(.DELETE, "/v1/customers/cust-r/payment-methods/\(pm)", token: m.apiKey)
            #expect(again.status == 200)
            #expect(again.json["status"] as? String == "revoked")
            #expect(again.json["updated_at"] as? String == deleted.json["updated_at"] as? String)
            #expect((again.json["failure"] as? [String: Any])?["message"] as? String == failure["message"] as? String)
            #expect(await stack.sandbox.sips.pendingRespond99() == [Self.deletePath: 1])
            #expect(await stack.sandbox.sips.ledger().isEmpty)
        }
    }

    @Test func aProviderFailureStillRevokesLocally() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            let (pm, wallet, mean) = try await Self.vaultSipsCard(stack, m, customer: "cust-f")
            await stack.sandbox.sips.faults.add([
                SandboxFault(kind: .http500, method: "POST", pathPrefix: "/rs-services/v2/" + Self.deletePath, count: 1)
            ])
            let deleted = try await stack.send(.DELETE, "/v1/customers/cust-f/payment-methods/\(pm)", token: m.apiKey)
            #expect(deleted.status == 200, "\(String(decoding: deleted.body, as: UTF8.self))")
            #expect(deleted.json["status"] as? String == "revoked")
            let message = (deleted.json["failure"] as? [String: Any])?["message"] as? String
            #expect(
                message?.contains("whether the provider revoked it is not known (http_500)") == true, "\(deleted.json)")
            #expect(await stack.sandbox.sips.faults.activeRules.isEmpty, "the provider was called once")
            // Sips still holds the card, but Switchyard will not pay with it.
            #expect(await Self.means(stack, wallet: wallet) == [mean])
            let refused = try await Self.payWith(stack, m, customer: "cust-f", pm: pm)
            #expect(refused.status == 422)
            #expect(refused.errorCode == "payment_method_unusable")
        }
    }

    @Test func aPendingVaultingIsRevokedWithoutAskingTheProvider() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            let vaulting = try await stack.send(.POST, "/v1/customers/cust-p/vaulting-sessions", token: m.apiKey)
            let pm = try #require(vaulting.json["id"] as? String)
            #expect(vaulting.json["status"] as? String == "pending")
            try await stack.sandbox.sips.respond99(service: Self.deletePath)
            let deleted = try await stack.send(.DELETE, "/v1/customers/cust-p/payment-methods/\(pm)", token: m.apiKey)
            #expect(deleted.json["status"] as? String == "revoked")
            #expect(deleted.json["next_action"] == nil)
            let message = (deleted.json["failure"] as? [String: Any])?["message"] as? String
            #expect(message?.contains("the provider was not asked") == true, "\(deleted.json)")
            #expect(await stack.sandbox.sips.pendingRespond99() == [Self.deletePath: 1])
        }
    }
}
