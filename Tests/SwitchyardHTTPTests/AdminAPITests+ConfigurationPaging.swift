import Foundation
import Testing

/// Tenants, a tenant's API keys, provider accounts and routing versions page like every list: newest
/// first, 20 by default, cursors that must name an item of the list, and refused filters named.
extension AdminAPITests {
    /// Pages `path` two at a time from the newest and expects the whole list `all` (newest first), both
    /// directions included; a cursor from no item of the list and a bad limit are refused and named.
    static func expectPaging(_ stack: TestStack, _ path: String, token: String, all: [String]) async throws {
        func list(_ query: String) async throws -> TestStack.Reply {
            try await stack.send(.GET, "\(path)?\(query)", token: token)
        }
        let first = try await list("limit=2")
        #expect(first.json["object"] as? String == "list")
        #expect(MerchantAPITests.ids(first) == Array(all.prefix(2)), "\(path)")
        #expect(first.json["has_more"] as? Bool == true && first.json["next_cursor"] as? String == all[1])
        let rest = try await list("limit=100&starting_after=\(all[1])")
        #expect(MerchantAPITests.ids(rest) == Array(all.dropFirst(2)), "\(path)")
        #expect(rest.json["has_more"] as? Bool == false)
        let back = try await list("limit=1&ending_before=\(all[2])")
        #expect(MerchantAPITests.ids(back) == [all[1]], "\(path)")
        #expect(back.json["has_more"] as? Bool == true)
        for query in ["starting_after=\(UUID().uuidString.lowercased())", "ending_before=nope", "created[gte]=soon"] {
            let refused = try await list(query)
            #expect(refused.status == 400 && refused.errorCode == "invalid_parameter", "\(path)?\(query)")
            let param = (refused.json["error"] as? [String: Any])?["param"] as? String
            #expect(param == String(query.prefix { $0 != "=" }), "\(path)?\(query)")
        }
        #expect(try await list("limit=101").errorCode == "invalid_limit")
    }

    @Test func tenantsPageNewestFirst() async throws {
        try await TestStack.with { stack in
            var created: [String] = []
            for name in ["First", "Second", "Third"] {
                let tenant = try await stack.send(
                    .POST, "/admin/v1/tenants", token: stack.operatorToken, json: ["name": name])
                created.append(try #require(tenant.json["id"] as? String))
            }
            let whole = try await stack.send(.GET, "/admin/v1/tenants?limit=100", token: stack.operatorToken)
            let all = MerchantAPITests.ids(whole)
            #expect(Array(all.prefix(3)) == created.reversed(), "newest first")
            #expect((whole.json["data"] as? [[String: Any]])?.first?["name"] as? String == "Third")
            try await Self.expectPaging(stack, "/admin/v1/tenants", token: stack.operatorToken, all: all)
            let refused = try await stack.send(.GET, "/admin/v1/tenants?status=active", token: stack.operatorToken)
            #expect(refused.status == 400 && refused.errorCode == "unknown_parameter", "tenants have no status")
        }
    }

    @Test func apiKeysAccountsAndRoutingVersionsPageNewestFirst() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let base = "/admin/v1/tenants/\(m.tenantId)"
            for name in ["second", "third"] {
                let key = try await stack.send(
                    .POST, "\(base)/api-keys", token: stack.operatorToken, json: ["name": name])
                try #require(key.status == 201)
            }
            let keys = try await stack.send(.GET, "\(base)/api-keys", token: stack.operatorToken)
            let names = (keys.json["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["third", "second", "k"])
            try await Self.expectPaging(
                stack, "\(base)/api-keys", token: stack.operatorToken, all: MerchantAPITests.ids(keys))

            var accounts = [m.accountId]
            for name in ["second", "third"] {
                accounts.append(
                    try await stack.addAccount(
                        tenantId: m.tenantId,
                        [
                            "name": name, "plugin": "citcon", "base_url": stack.sandboxURL + "/citcon",
                            "environment": "sandbox",
                            "credentials": [
                                "private_key": TestStack.citconMerchant.privateKey,
                                "ipn_secret": TestStack.citconMerchant.ipnSecret,
                            ],
                        ]))
            }
            let listed = try await stack.send(.GET, "\(base)/provider-accounts", token: stack.operatorToken)
            #expect(MerchantAPITests.ids(listed) == accounts.reversed())
            try await Self.expectPaging(
                stack, "\(base)/provider-accounts", token: stack.operatorToken, all: accounts.reversed())
            let disabled = try await stack.send(
                .PATCH, "\(base)/provider-accounts/\(accounts[1])", token: stack.operatorToken,
                json: ["enabled": false])
            #expect(disabled.status == 200)
            let off = try await stack.send(
                .GET, "\(base)/provider-accounts?status=disabled", token: stack.operatorToken)
            #expect(MerchantAPITests.ids(off) == [accounts[1]])
            let on = try await stack.send(.GET, "\(base)/provider-accounts?status=enabled", token: stack.operatorToken)
            #expect(MerchantAPITests.ids(on) == [accounts[2], accounts[0]])
            let other = try await stack.merchant(name: "Other")
            let foreign = try await stack.send(
                .GET, "\(base)/provider-accounts?starting_after=\(other.accountId)", token: stack.operatorToken)
            #expect(foreign.status == 400 && foreign.errorCode == "invalid_parameter", "another tenant's account")

            for version in 2...3 {
                let routing = try await stack.send(
                    .PUT, "\(base)/routing", token: stack.operatorToken,
                    json: [
                        "rules": [
                            ["name": "v\(version)", "match": ["countries": ["US"]], "accounts": [m.accountId]]
                        ]
                    ])
                try #require(routing.status == 200, "\(routing.json)")
            }
            for path in ["\(base)/routing/versions", "/v1/routing/versions"] {
                let token = path.hasPrefix("/v1") ? m.apiKey : stack.operatorToken
                func numbers(_ reply: TestStack.Reply) -> [Int] {
                    (reply.json["data"] as? [[String: Any]] ?? []).compactMap { $0["version"] as? Int }
                }
                let versions = try await stack.send(.GET, path, token: token)
                #expect(numbers(versions) == [3, 2, 1], "\(path)")
                let older = try await stack.send(.GET, "\(path)?limit=1&starting_after=3", token: token)
                #expect(numbers(older) == [2] && older.json["next_cursor"] as? String == "2", "\(path)")
                let unknown = try await stack.send(.GET, "\(path)?starting_after=9", token: token)
                #expect(unknown.status == 400 && unknown.errorCode == "invalid_parameter", "\(path)")
                let malformed = try await stack.send(.GET, "\(path)?ending_before=v1", token: token)
                #expect(malformed.status == 400 && malformed.errorCode == "invalid_parameter", "\(path)")
            }
        }
    }
}
