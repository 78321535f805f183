import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardHTTP
import SwitchyardTestSupport
import Testing

/// `POST …/routing/replay` over payments routed 50/50 between two accounts whose endpoints answer with
/// seeded outcomes (the C example plugin: `authorized` for a 2xx, `declined` for a 4xx).
@Suite(.serialized)
struct RoutingReplayEndToEndTests {
    static let policy: @Sendable (inout PlatformPolicy) -> Void = { policy in
        policy.tenants = .init(requestsPerSecond: 1_000_000, burst: 1_000_000, maxConcurrentRequests: 10_000)
        policy.routingReplay.maxPayments = 70
        policy.routingReplay.minEffectiveSamples = 5
    }

    func echoAccount(_ name: String, _ url: String) -> [String: Any] {
        [
            "plugin": "c-echo", "base_url": url, "environment": "sandbox", "name": name,
            "credentials": ["api_key": "c-echo-key-0123456789"],
            "fees": ["EUR": ["fixed": name == "a" ? 30 : 10, "basis_points": 0]],
        ]
    }

    func rule(_ name: String, _ countries: [String], _ accounts: [String], weights: [Int]? = nil) -> [String: Any] {
        var rule: [String: Any] = [
            "name": name, "match": ["countries": countries, "currencies": ["EUR"], "methods": ["card"]],
            "accounts": accounts,
        ]
        if let weights { rule["weights"] = weights }
        return rule
    }

    func text(_ reply: TestStack.Reply) -> String { String(decoding: reply.body, as: UTF8.self) }

    func param(_ reply: TestStack.Reply) -> String? {
        (reply.json["error"] as? [String: Any])?["param"] as? String
    }

    /// The answer matches the `RoutingReplay` schema of the OpenAPI document.
    func expectDocumented(_ reply: TestStack.Reply) throws {
        let document = try JSONDecoder().decode(JSONValue.self, from: OpenAPIDocument.load())
        let value = try JSONDecoder().decode(JSONValue.self, from: reply.body)
        let problems = SchemaSubset(document: document).problems(
            value, .object(["$ref": .string("#/components/schemas/RoutingReplay")]))
        #expect(problems.isEmpty, "\(problems) in \(text(reply))")
    }

    func segment(_ body: [String: Any], _ country: String) -> [String: Any]? {
        (body["segments"] as? [[String: Any]])?.first { $0["country"] as? String == country }
    }

    func rate(_ object: [String: Any]?) -> [String: Any]? {
        object?["authorization_rate"] as? [String: Any]
    }

    @Test func aDraftMovingASegmentIsReplayedNextToTheLiveRouting() async throws {
        let plugin = try FixturePlugins.build("c_echo.c", in: "Plugins/Examples/c-echo")
        try await TestStack.with(extraPlugins: [(name: "libCEchoPlugin.so", path: plugin)], policy: Self.policy) {
            stack in
            try await WebhookReceiver.with { receiverA in
                try await WebhookReceiver.with { receiverB in
                    // A authorises 9 of 10, B 6 of 10, in a fixed order.
                    let answersA = [200, 200, 200, 402, 200, 200, 200, 200, 200, 200]
                    let answersB = [200, 402, 200, 402, 200, 200, 402, 200, 402, 200]
                    receiverA.answer(Array(repeating: answersA, count: 10).flatMap { $0 })
                    receiverB.answer(Array(repeating: answersB, count: 10).flatMap { $0 })
                    try await run(stack, receiverA.url, receiverB.url)
                }
            }
        }
    }

    func run(_ stack: TestStack, _ urlA: String, _ urlB: String) async throws {
        let m = try await stack.merchant(
            name: "Replay Shop", account: echoAccount("a", urlA), match: ["currencies": ["EUR"], "methods": ["card"]])
        let accounts = "/admin/v1/tenants/\(m.tenantId)/provider-accounts"
        let created = try await stack.send(.POST, accounts, token: stack.operatorToken, json: echoAccount("b", urlB))
        try #require(created.status == 201, "\(text(created))")
        let (a, b) = (m.accountId, try #require(created.json["id"] as? String))
        let third = try await stack.send(.POST, accounts, token: stack.operatorToken, json: echoAccount("c", urlA))
        let c = try #require(third.json["id"] as? String)
        let live = [rule("split", [], [a, b], weights: [1, 1])]
        let put = try await stack.send(.PUT, "/v1/routing", token: m.apiKey, json: ["rules": live])
        try #require(put.status == 200, "\(text(put))")
        var firstAccount: [String: String] = [:]
        for n in 0..<80 {
            let country = n % 2 == 0 ? "FR" : "DE"
            let payment = try await stack.createPayment(
                m, ["amount": 1000, "currency": "EUR", "country": country, "method": "card", "reference": "r-\(n)"])
            let id = try #require(payment["id"] as? String)
            let routing = payment["routing"] as? [String: Any]
            let propensities = routing?["propensities"] as? [[String: Any]] ?? []
            #expect(propensities.map { $0["probability"] as? Double } == [0.5, 0.5], "\(routing ?? [:])")
            firstAccount[id] = (payment["attempts"] as? [[String: Any]])?.first?["provider_account"] as? String
        }

        // The draft sends DE to b only.
        let draft = [rule("de to b", ["DE"], [b])] + live
        let replied = try await stack.send(
            .POST, "/v1/routing/replay", token: m.apiKey,
            json: ["rules": draft, "window": ["last": 70], "changes_limit": 5])
        try #require(replied.status == 200, "\(text(replied))")
        let body = replied.json
        try expectDocumented(replied)
        #expect(body["object"] as? String == "routing_replay")
        #expect(body["scored_attempt"] as? String == "first")
        #expect(body["payments"] as? Int == 70)
        let france = try #require(segment(body, "FR"))
        let germany = try #require(segment(body, "DE"))
        #expect((france["draft"] as? NSDictionary) == (france["live"] as? NSDictionary))
        #expect(rate(germany["draft"] as? [String: Any])?["method"] as? String == "dr")
        #expect(rate(germany["draft"] as? [String: Any])?["evidence"] as? String == "enough", "\(germany)")
        let estimate = try #require(rate(germany["draft"] as? [String: Any])?["estimate"] as? Double)
        let lower = try #require(rate(germany["draft"] as? [String: Any])?["lower"] as? Double)
        let upper = try #require(rate(germany["draft"] as? [String: Any])?["upper"] as? Double)
        #expect(lower <= estimate && estimate <= upper)
        let shares = (germany["draft"] as? [String: Any])?["shares"] as? [[String: Any]]
        #expect(shares?.map { $0["account_id"] as? String } == [b])
        #expect((germany["draft"] as? [String: Any])?["expected_fees"] as? [String: Int] == ["EUR": 35 * 10])
        let observed = try #require((body["live"] as? [String: Any]).flatMap(rate))
        #expect(observed["estimate"] as? Double != nil)
        // The moved payments: DE payments first sent to a, paged by cursor.
        let changes = try #require(body["changes"] as? [String: Any])
        let page = changes["data"] as? [[String: Any]] ?? []
        #expect(page.count == 5)
        #expect(page.allSatisfy { $0["country"] as? String == "DE" && $0["to_account_id"] as? String == b })
        #expect(page.allSatisfy { firstAccount[$0["payment_id"] as? String ?? ""] == a })
        let cursor = try #require(changes["next_cursor"] as? String)
        let next = try await stack.send(
            .POST, "/v1/routing/replay", token: m.apiKey,
            json: ["rules": draft, "window": ["last": 70], "changes_limit": 100, "changes_cursor": cursor])
        let rest = (next.json["changes"] as? [String: Any])?["data"] as? [[String: Any]] ?? []
        #expect(rest.count + 5 == changes["total"] as? Int)
        let seen = Set(page.compactMap { $0["payment_id"] as? String })
        #expect(seen.isDisjoint(with: rest.compactMap { $0["payment_id"] as? String }))

        // A draft sending FR to an account live routing never chose there: not enough evidence.
        let unsupported = try await stack.send(
            .POST, "/admin/v1/tenants/\(m.tenantId)/routing/replay", token: stack.operatorToken,
            json: ["rules": [rule("fr to c", ["FR"], [c])] + live, "window": ["last": 70]])
        try #require(unsupported.status == 200, "\(text(unsupported))")
        try expectDocumented(unsupported)
        let fr = rate(segment(unsupported.json, "FR")?["draft"] as? [String: Any])
        #expect(fr?["evidence"] as? String == "not enough evidence")
        #expect(fr?["estimate"] is NSNull)
        #expect(rate(unsupported.json["draft"] as? [String: Any])?["evidence"] as? String == "not enough evidence")
        #expect(rate(segment(unsupported.json, "DE")?["draft"] as? [String: Any])?["evidence"] as? String == "enough")

        // Bad windows and limits.
        let bad: [(json: [String: Any], status: Int, code: String, param: String)] = [
            (["rules": live, "window": ["last": 0]], 400, "invalid_parameter", "last"),
            (["rules": live, "window": ["last": 71]], 422, "replay_window_too_large", "last"),
            (["rules": live, "window": ["from": "2026-01-02T00:00:00Z"]], 422, "replay_window_too_large", "from"),
            (
                ["rules": live, "window": ["from": "2026-01-02T00:00:00Z", "to": "2026-01-01T00:00:00Z"]], 400,
                "invalid_parameter", "to"
            ),
            (["rules": live, "window": ["last": 10], "changes_limit": 0], 400, "invalid_limit", "changes_limit"),
            (
                ["rules": live, "window": ["last": 10], "changes_cursor": "pay_x"], 400, "invalid_parameter",
                "changes_cursor"
            ),
        ]
        for (json, status, code, name) in bad {
            let reply = try await stack.send(.POST, "/v1/routing/replay", token: m.apiKey, json: json)
            #expect(reply.status == status, "\(json): \(text(reply))")
            #expect(reply.errorCode == code, "\(json)")
            #expect(param(reply) == name, "\(json)")
        }

        // Another tenant sees none of these payments and cannot name these accounts.
        let other = try await stack.antomMerchant(name: "Other")
        let own = [["name": "main", "match": [String: Any](), "accounts": [other.accountId]] as [String: Any]]
        let theirs = try await stack.send(
            .POST, "/v1/routing/replay", token: other.apiKey, json: ["rules": own, "window": ["last": 10]])
        #expect(theirs.status == 200, "\(text(theirs))")
        #expect(theirs.json["payments"] as? Int == 0)
        let foreign = try await stack.send(
            .POST, "/v1/routing/replay", token: other.apiKey, json: ["rules": draft, "window": ["last": 10]])
        #expect(foreign.status == 422)
        #expect(foreign.errorCode == "invalid_routing")
        let asMerchant = try await stack.send(
            .POST, "/admin/v1/tenants/\(m.tenantId)/routing/replay", token: other.apiKey,
            json: ["rules": live, "window": ["last": 10]])
        #expect([401, 403].contains(asMerchant.status))
        let operatorOther = try await stack.send(
            .POST, "/admin/v1/tenants/\(other.tenantId)/routing/replay", token: stack.operatorToken,
            json: ["rules": own, "window": ["last": 10]])
        #expect(operatorOther.status == 200, "\(text(operatorOther))")
        #expect(operatorOther.json["payments"] as? Int == 0)
    }
}
