import Foundation
import Testing

/// A customer's payment methods page like every list, filtered by status, and never show another
/// customer's.
extension MerchantAPITests {
    @Test func aCustomersPaymentMethodsPageNewestFirstByStatus() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant()
            func vault(_ customer: String) async throws -> String {
                let session = try await stack.send(
                    .POST, "/v1/customers/\(customer)/vaulting-sessions", token: m.apiKey,
                    json: [
                        "return_url": "https://shop.example/vaulted", "country": "SG",
                        "metadata": ["customer_ref": customer], "description": "card of \(customer)",
                    ])
                try #require(session.status == 201, "\(String(decoding: session.body, as: UTF8.self))")
                return try #require(session.json["id"] as? String)
            }
            var vaulted: [String] = []
            for _ in 0..<3 { vaulted.append(try await vault("cust-p")) }
            let elsewhere = try await vault("cust-q")
            let path = "/v1/customers/cust-p/payment-methods"
            let all = try await stack.send(.GET, path, token: m.apiKey)
            #expect(Self.ids(all) == vaulted.reversed(), "newest first, only this customer's")
            let listed = all.json["data"] as? [[String: Any]] ?? []
            #expect(listed.count == 3)
            for method in listed {
                #expect((method["metadata"] as? [String: String]) == ["customer_ref": "cust-p"], "listed with it")
                #expect(method["description"] as? String == "card of cust-p")
            }
            try await AdminAPITests.expectPaging(stack, path, token: m.apiKey, all: vaulted.reversed())
            let pending = try await stack.send(.GET, "\(path)?status=pending", token: m.apiKey)
            #expect(Self.ids(pending) == vaulted.reversed())
            let active = try await stack.send(.GET, "\(path)?status=active", token: m.apiKey)
            #expect(active.status == 200 && Self.ids(active).isEmpty)
            let unknown = try await stack.send(.GET, "\(path)?status=lost", token: m.apiKey)
            #expect(unknown.status == 400 && unknown.errorCode == "invalid_status")
            let foreign = try await stack.send(.GET, "\(path)?starting_after=\(elsewhere)", token: m.apiKey)
            #expect(foreign.status == 400 && foreign.errorCode == "invalid_parameter", "another customer's method")
        }
    }
}
