import Foundation
import ProviderSandbox
import Testing

/// A method its plugin's manifest says is paid only with a stored payment method (Antom's card, bound
/// through the vaulting flow first) is offered only to a customer who has a usable one.
extension PaymentOptionsTests {
    @Test func aMethodPaidOnlyWithAStoredOneIsOfferedToACustomerWhoHasOne() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant()
            func options(customer: String?) async throws -> (
                offered: [String: [String: Any]], unavailable: [String: [String: Any]]
            ) {
                var body: [String: Any] = ["country": "SG", "currency": "SGD", "amount": 4000]
                body["customer"] = customer
                let reply = try await stack.send(.POST, "/v1/payment-options", token: m.apiKey, json: body)
                try #require(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                return Self.options(reply)
            }
            for customer in [nil, "cust-7"] {
                let (offered, unavailable) = try await options(customer: customer)
                #expect(offered["card"] == nil, "\(customer ?? "no customer")")
                let card = try #require(unavailable["card"])
                #expect(card["reason"] as? String == "stored_method_required")
                let message = card["message"] as? String ?? ""
                #expect(message.contains("stored payment method"), "\(message)")
                #expect(customer.map { message.contains("'\($0)'") } ?? message.contains("give the customer"))
                #expect(offered["alipay_cn"] != nil, "a wallet needs nothing stored")
            }

            // The customer vaults a card: now the card is offered to them, and still not to others.
            let session = try await stack.send(
                .POST, "/v1/customers/cust-7/vaulting-sessions", token: m.apiKey,
                json: ["return_url": "https://shop.example/vaulted", "country": "SG"])
            try #require(session.status == 201, "\(String(decoding: session.body, as: UTF8.self))")
            let pm = try #require(session.json["id"] as? String)
            #expect(
                try await options(customer: "cust-7").unavailable["card"]?["reason"] as? String
                    == "stored_method_required", "a pending card is not usable")
            let data = try #require((session.json["next_action"] as? [String: Any])?["data"] as? [String: Any])
            _ = try await stack.sandbox.antom.completeVaulting(
                vaultingSessionId: try #require(data["vaultingSessionId"] as? String),
                card: AntomCardInput(cardNumber: AntomTestCard.visa, expiryMonth: "12", expiryYear: "30", cvv: "123"))
            _ = try await AntomEndToEndTests().waitForPaymentMethod(
                stack, m, customer: "cust-7", id: pm, status: "active")
            let vaulted = try await options(customer: "cust-7")
            let card = try #require(vaulted.offered["card"], "\(vaulted.unavailable)")
            #expect((card["account"] as? [String: Any])?["id"] as? String == m.accountId)
            #expect(try await options(customer: "cust-8").offered["card"] == nil)

            // Revoked, it is no longer usable.
            let revoked = try await stack.send(.DELETE, "/v1/customers/cust-7/payment-methods/\(pm)", token: m.apiKey)
            try #require(revoked.status == 200)
            #expect(try await options(customer: "cust-7").offered["card"] == nil)
        }
    }
}
