import Foundation
import SwitchyardCore
import Testing

/// Every list pages the same way: `limit`, `starting_after` / `ending_before`, `created[…]`, `status`,
/// and a named 400 for a malformed filter.
extension MerchantAPITests {
    /// The ids of a list answer.
    static func ids(_ reply: TestStack.Reply) -> [String] {
        (reply.json["data"] as? [[String: Any]] ?? []).compactMap {
            ($0["id"] as? String) ?? ($0["id"] as? Int).map(String.init)
        }
    }

    @Test func endpointsPageStablyWhileNewOnesArriveAndBadFiltersAreNamed() async throws {
        try await TestStack.with(policy: { $0.webhooks.allowHosts = ["127.0.0.1"] }) { stack in
            let m = try await stack.worldlineMerchant()
            func register(_ index: Int) async throws -> String {
                let created = try await stack.send(
                    .POST, "/v1/webhook-endpoints", token: m.apiKey,
                    json: ["url": "http://127.0.0.1:9/\(index)", "event_types": ["*"]])
                try #require(created.status == 201)
                return try #require(created.json["id"] as? String)
            }
            var registered: [String] = []
            for index in 0..<5 { registered.append(try await register(index)) }
            func list(_ query: String, token: String? = nil) async throws -> TestStack.Reply {
                try await stack.send(.GET, "/v1/webhook-endpoints?\(query)", token: token ?? m.apiKey)
            }
            let all = try await list("limit=100")
            #expect(Self.ids(all) == registered.reversed(), "newest first")
            #expect(all.json["object"] as? String == "list" && all.json["has_more"] as? Bool == false)

            // Paging while endpoints are added: the old ones come once each, in order.
            let first = try await list("limit=2")
            #expect(Self.ids(first) == Array(registered.reversed().prefix(2)))
            #expect(first.json["has_more"] as? Bool == true)
            #expect(first.json["next_cursor"] as? String == Self.ids(first).last)
            for index in 5..<7 { _ = try await register(index) }
            var seen = Self.ids(first)
            var cursor = try #require(Self.ids(first).last)
            while true {
                let next = try await list("limit=2&starting_after=\(cursor)")
                seen += Self.ids(next)
                guard next.json["has_more"] as? Bool == true, let last = Self.ids(next).last else { break }
                cursor = last
            }
            #expect(seen == registered.reversed(), "no duplicate, no gap among the old endpoints")
            let back = try await list("limit=2&ending_before=\(registered[2])")
            #expect(Self.ids(back) == [registered[4], registered[3]])
            #expect(back.json["has_more"] as? Bool == true, "the endpoints added meanwhile are newer still")

            // Filters: status, creation window.
            _ = try await stack.send(.DELETE, "/v1/webhook-endpoints/\(registered[1])", token: m.apiKey)
            #expect(Self.ids(try await list("status=disabled")) == [registered[1]])
            #expect(Self.ids(try await list("status=enabled&limit=100")).count == 6)
            #expect(Self.ids(try await list("created[gte]=\(Int(Date().timeIntervalSince1970) + 3600)")).isEmpty)
            #expect(Self.ids(try await list("created[lt]=2000-01-01T00:00:00Z")).isEmpty)
            #expect(
                Self.ids(try await list("created[lte]=\(Int(Date().timeIntervalSince1970) + 3600)&limit=100")).count
                    == 7)

            // Malformed filters are refused, never read as "no filter".
            let other = try await stack.worldlineMerchant(name: "Other")
            let foreign = try await stack.send(
                .POST, "/v1/webhook-endpoints", token: other.apiKey,
                json: ["url": "http://127.0.0.1:9/other", "event_types": ["*"]])
            let foreignId = try #require(foreign.json["id"] as? String)
            let refusals: [(String, String)] = [
                ("created[gte]=yesterday", "invalid_parameter"), ("starting_after=we_missing", "invalid_parameter"),
                ("starting_after=\(foreignId)", "invalid_parameter"),
                ("starting_after=\(registered[0])&ending_before=\(registered[1])", "invalid_parameter"),
                ("limit=0", "invalid_limit"), ("limit=101", "invalid_limit"), ("status=lost", "invalid_status"),
            ]
            for (query, code) in refusals {
                let refused = try await list(query)
                #expect(refused.status == 400 && refused.errorCode == code, "\(query)")
            }
            #expect(try await stack.send(.GET, "/v1/events?ending_before=evt_missing", token: m.apiKey).status == 400)
            #expect(
                try await stack.send(.GET, "/v1/webhook-deliveries?created[gt]=soon", token: m.apiKey).errorCode
                    == "invalid_parameter")
        }
    }
}
