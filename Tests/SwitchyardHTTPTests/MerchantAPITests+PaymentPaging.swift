import Foundation
import Testing

/// The payments list pages like every other list: cursors both ways, status and creation filters, and a
/// named 400 for a cursor that is not one of the tenant's payments.
extension MerchantAPITests {
    @Test func paymentsPageBothWaysWithFiltersAndRefuseForeignCursors() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            var created: [String] = []
            for index in 0..<5 {
                let reply = try await stack.send(
                    .POST, "/v1/payments", token: m.apiKey,
                    json: [
                        "amount": 100 + index, "currency": "USD", "country": "US", "method": "alipay",
                        "reference": "page-\(index % 2)",
                    ])
                try #require(reply.status == 201)
                created.append(try #require(reply.json["id"] as? String))
            }
            func list(_ query: String, token: String? = nil) async throws -> TestStack.Reply {
                try await stack.send(.GET, "/v1/payments?\(query)", token: token ?? m.apiKey)
            }
            let newestFirst = Array(created.reversed())
            #expect(Self.ids(try await list("limit=100")) == newestFirst)

            let first = try await list("limit=2")
            #expect(Self.ids(first) == Array(newestFirst.prefix(2)))
            #expect(first.json["has_more"] as? Bool == true)
            let second = try await list("limit=2&starting_after=\(newestFirst[1])")
            #expect(Self.ids(second) == Array(newestFirst[2..<4]))
            let back = try await list("limit=2&ending_before=\(newestFirst[3])")
            #expect(Self.ids(back) == Array(newestFirst[1..<3]), "the two newer ones, newest first")
            #expect(back.json["has_more"] as? Bool == true, "one newer payment remains")

            let waiting = try await list("status=requires_action&limit=100")
            #expect(Self.ids(waiting) == newestFirst)
            #expect(Self.ids(try await list("status=succeeded")).isEmpty)
            #expect(Self.ids(try await list("reference=page-1&limit=100")) == [created[3], created[1]])
            let later = Int(Date().timeIntervalSince1970) + 3600
            #expect(Self.ids(try await list("created[gte]=\(later)")).isEmpty)
            #expect(Self.ids(try await list("created[lte]=\(later)&limit=100")) == newestFirst)

            let other = try await stack.merchant(name: "Other")
            let foreign = try await stack.send(
                .POST, "/v1/payments", token: other.apiKey,
                json: ["amount": 100, "currency": "USD", "country": "US", "method": "alipay", "reference": "x"])
            let foreignId = try #require(foreign.json["id"] as? String)
            let refusals: [(String, String, String)] = [
                ("starting_after=pay_missing", "invalid_parameter", "starting_after"),
                ("starting_after=\(foreignId)", "invalid_parameter", "starting_after"),
                ("ending_before=\(created[0])&reference=page-1", "invalid_parameter", "ending_before"),
                ("starting_after=\(created[0])&ending_before=\(created[1])", "invalid_parameter", "ending_before"),
                ("created[gt]=soon", "invalid_parameter", "created[gt]"),
                ("status=lost", "invalid_status", "status"), ("limit=101", "invalid_limit", "limit"),
            ]
            for (query, code, param) in refusals {
                let refused = try await list(query)
                #expect(refused.status == 400 && refused.errorCode == code, "\(query): \(refused.status)")
                let named = (refused.json["error"] as? [String: Any])?["param"] as? String
                #expect(named == param, "\(query): \(String(decoding: refused.body, as: UTF8.self))")
            }
        }
    }
}
