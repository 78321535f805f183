import Foundation
import NIOHTTP1
import Testing

/// Hostile or careless input reaches a 4xx with a stable code, never a trap or a 500: routing weights
/// that overflow, NUL characters, number literals and duplicate keys, bodies that are not JSON,
/// `return_url` and API key expiries.
@Suite(.serialized) struct InputHardeningTests {
    static var payment: [String: Any] {
        ["amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "order-1"]
    }

    static func text(_ reply: TestStack.Reply) -> String { String(decoding: reply.body, as: UTF8.self) }

    @Test func overflowingRoutingWeightsAreRefusedAndTheServerStaysUp() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let rules: [[String: Any]] = [
                [
                    "name": "split", "accounts": [UUID().uuidString, UUID().uuidString],
                    "weights": [Int.max, 1],
                ]
            ]
            let attempts: [(String, String)] = [
                ("/v1/routing", m.apiKey), ("/admin/v1/tenants/\(m.tenantId)/routing", stack.operatorToken),
            ]
            for (path, token) in attempts {
                let reply = try await stack.send(.PUT, path, token: token, json: ["rules": rules])
                #expect(reply.status == 422, "\(path): \(Self.text(reply))")
                #expect(reply.errorCode == "invalid_routing")
                let issues = (reply.json["error"] as? [String: Any])?["issues"] as? [[String: Any]] ?? []
                #expect(issues.contains { $0["code"] as? String == "invalid_weights" }, "\(Self.text(reply))")
            }
            let simulate = try await stack.send(
                .POST, "/v1/routing/simulate", token: m.apiKey,
                json: [
                    "amount": 9_223_372_036_854_775_807, "currency": "USD", "country": "US", "method": "alipay",
                ])
            #expect(simulate.status == 400 && simulate.errorCode == "invalid_amount", "\(Self.text(simulate))")
            let alive = try await stack.send(.GET, "/v1/routing", token: m.apiKey)
            #expect(alive.status == 200)
        }
    }

    @Test func aNULCharacterIsRefusedAsInvalidTextEverywhere() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            var checked: [(String, TestStack.Reply)] = []
            for field in ["reference", "customer"] {
                var body = Self.payment
                body[field] = "a\u{0}b"
                checked.append((field, try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: body)))
            }
            var nested = Self.payment
            nested["payment_data"] = ["note": "x\u{0}"]
            checked.append(
                ("payment_data", try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: nested)))
            // A raw NUL inside a JSON string, not escaped.
            let raw =
                Data(#"{"amount":1234,"currency":"USD","country":"US","method":"alipay","reference":"a"#.utf8)
                + Data([0]) + Data(#""}"#.utf8)
            checked.append(
                (
                    "raw reference",
                    try await stack.send(
                        .POST, "/v1/payments", token: m.apiKey, raw: raw, headers: ["Content-Type": "application/json"])
                ))
            let paid = try await stack.createPayment(m, Self.payment)
            let id = try #require(paid["id"] as? String)
            checked.append(
                (
                    "refund reason",
                    try await stack.send(
                        .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["reason": "nul\u{0}"])
                ))
            checked.append(
                (
                    "tenant name",
                    try await stack.send(
                        .POST, "/admin/v1/tenants", token: stack.operatorToken, json: ["name": "Shop\u{0}"])
                ))
            checked.append(
                (
                    "account name",
                    try await stack.send(
                        .PATCH, "/admin/v1/tenants/\(m.tenantId)/provider-accounts/\(m.accountId)",
                        token: stack.operatorToken, json: ["name": "acc\u{0}"])
                ))
            checked.append(
                (
                    "api key name",
                    try await stack.send(
                        .POST, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: stack.operatorToken,
                        json: ["name": "k\u{0}"])
                ))
            checked.append(
                (
                    "webhook description",
                    try await stack.send(
                        .POST, "/v1/webhook-endpoints", token: m.apiKey,
                        json: [
                            "url": "http://127.0.0.1:9/hook", "event_types": ["payment.succeeded"],
                            "description": "d\u{0}",
                        ])
                ))
            checked.append(
                ("reference query", try await stack.send(.GET, "/v1/payments?reference=a%00b", token: m.apiKey)))
            checked.append(
                ("events query", try await stack.send(.GET, "/v1/events?type=x%00", token: m.apiKey)))
            checked.append(
                (
                    "customer path",
                    try await stack.send(.GET, "/v1/customers/a%00b/payment-methods", token: m.apiKey)
                ))
            for (name, reply) in checked {
                #expect(reply.status == 400, "\(name): \(Self.text(reply))")
                #expect(reply.errorCode == "invalid_text", "\(name): \(Self.text(reply))")
            }
            let list = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            #expect((list.json["data"] as? [Any])?.count == 1)
        }
    }

    @Test func numbersAndKeysAreReadStrictly() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let base = #""currency":"USD","country":"US","method":"alipay","reference":"strict-1""#
            let cases: [(String, String)] = [
                (#"{"amount":12.0,\#(base)}"#, "invalid_amount"),
                (#"{"amount":1e3,\#(base)}"#, "invalid_amount"),
                (#"{"amount":1E+3,\#(base)}"#, "invalid_amount"),
                (#"{"amount":1234,"amount":1,\#(base)}"#, "duplicate_key"),
                (#"{"amount":1234,\#(base),"payment_data":{"a":1,"\u0061":2}}"#, "duplicate_key"),
                (
                    #"{"amount":1234,\#(base),"payment_data":\#(String(repeating: "[", count: 100))"#
                        + String(repeating: "]", count: 100) + "}", "invalid_json"
                ),
                ("\u{FEFF}" + #"{"amount":1234,\#(base)}"#, "invalid_json"),
            ]
            for (body, code) in cases {
                let reply = try await stack.send(
                    .POST, "/v1/payments", token: m.apiKey, raw: Data(body.utf8),
                    headers: ["Content-Type": "application/json"])
                #expect(reply.status == 400, "\(body.prefix(80)): \(Self.text(reply))")
                #expect(reply.errorCode == code, "\(body.prefix(80)): \(Self.text(reply))")
            }
            let rules =
                #"{"rules":[{"name":"r","accounts":["\#(m.accountId)"],"#
                + #""match":{"currencies":["USD"],"min_amount":1.5e2}}]}"#
            let routing = try await stack.send(
                .PUT, "/v1/routing", token: m.apiKey, raw: Data(rules.utf8),
                headers: ["Content-Type": "application/json"])
            #expect(routing.status == 400 && routing.errorCode == "invalid_amount", "\(Self.text(routing))")
            let list = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            #expect((list.json["data"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func bodiesMustBeDeclaredAsJSON() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            func post(_ contentType: String?, reference: String) async throws -> TestStack.Reply {
                var body = Self.payment
                body["reference"] = reference
                return try await stack.send(
                    .POST, "/v1/payments", token: m.apiKey, raw: try JSONSerialization.data(withJSONObject: body),
                    headers: contentType.map { ["Content-Type": $0] } ?? [:])
            }
            for refused in [
                "application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x",
                "application/jsonp", "json", "+json",
            ] {
                let reply = try await post(refused, reference: "ct-refused")
                #expect(reply.status == 415, "\(refused): \(Self.text(reply))")
                #expect(reply.errorCode == "unsupported_media_type")
            }
            let admin = try await stack.send(
                .POST, "/admin/v1/tenants", token: stack.operatorToken, raw: Data(#"{"name":"Form"}"#.utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(admin.status == 415 && admin.errorCode == "unsupported_media_type")
            let accepted = [
                "application/json", "Application/JSON; charset=utf-8", "application/merchant+json", nil,
            ]
            for (index, contentType) in accepted.enumerated() {
                let reply = try await post(contentType, reference: "ct-\(index)")
                #expect(reply.status == 201, "\(contentType ?? "none"): \(Self.text(reply))")
            }
            // Provider notifications are forms, and stay exempt (however the path is spelled).
            for path in ["/notifications/\(m.accountId)", "//notifications/\(m.accountId)"] {
                let notification = try await stack.send(
                    .POST, path, raw: Data("charge_id=1&sign=x".utf8),
                    headers: ["Content-Type": "application/x-www-form-urlencoded"])
                #expect(notification.status != 415, "\(path): \(Self.text(notification))")
            }
        }
    }

    @Test func returnURLMustBeAShortAbsoluteHTTPURL() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let bad = [
                "https://shop.example/" + String(repeating: "a", count: 60_000), "javascript:alert(1)", "/relative",
                "https://user:pw@shop.example/back",
            ]
            for url in bad {
                var body = Self.payment
                body["return_url"] = url
                let reply = try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: body)
                #expect(reply.status == 400, "\(url.prefix(40)): \(Self.text(reply))")
                #expect(reply.errorCode == "invalid_return_url")
            }
            let vaulting = try await stack.send(
                .POST, "/v1/customers/alice/vaulting-sessions", token: m.apiKey,
                json: ["return_url": "ftp://shop.example/back"])
            #expect(vaulting.status == 400 && vaulting.errorCode == "invalid_return_url", "\(Self.text(vaulting))")
            var good = Self.payment
            good["return_url"] = "https://shop.example/back"
            #expect(try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: good).status == 201)
        }
    }

    @Test func anAPIKeyCannotBeBornExpired() async throws {
        let clock = TestClock()
        try await TestStack.with(clock: clock) { stack in
            let m = try await stack.merchant()
            // The server's clock is ahead of the wall clock: "an hour from now" by the wall is already past.
            clock.advance(by: 7_200)
            let formatter = ISO8601DateFormatter()
            let past = formatter.string(from: Date().addingTimeInterval(3_600))
            let keys = "/admin/v1/tenants/\(m.tenantId)/api-keys"
            let created = try await stack.send(
                .POST, keys, token: stack.operatorToken, json: ["name": "late", "expires_at": past])
            #expect(created.status == 400 && created.errorCode == "invalid_expires_at", "\(Self.text(created))")
            let fresh = try await stack.send(.POST, keys, token: stack.operatorToken, json: ["name": "ok"])
            #expect(fresh.status == 201, "\(Self.text(fresh))")
            let id = try #require(fresh.json["id"] as? String)
            let rotated = try await stack.send(
                .POST, "\(keys)/\(id)/rotate", token: stack.operatorToken, json: ["expires_at": past])
            #expect(rotated.status == 400 && rotated.errorCode == "invalid_expires_at", "\(Self.text(rotated))")
            let future = formatter.string(from: clock.now().addingTimeInterval(3_600))
            let good = try await stack.send(
                .POST, keys, token: stack.operatorToken, json: ["name": "later", "expires_at": future])
            #expect(good.status == 201, "\(Self.text(good))")
        }
    }
}
