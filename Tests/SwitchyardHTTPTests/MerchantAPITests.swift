import Foundation
import Hummingbird
import NIOHTTP1
import Testing

@testable import SwitchyardHTTP

@Suite(.serialized) struct MerchantAPITests {
    static var body: [String: Any] {
        ["amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "order-1"]
    }

    @Test func badInputGetsA4xxWithAStableCode() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            func post(_ json: Any? = nil, raw: Data? = nil, token: String? = nil) async throws -> TestStack.Reply {
                try await stack.send(.POST, "/v1/payments", token: token ?? m.apiKey, json: json, raw: raw)
            }
            var cases: [(TestStack.Reply, Int, String)] = []
            var negative = Self.body
            negative["amount"] = -5
            cases.append((try await post(negative), 400, "invalid_amount"))
            var fractional = Self.body
            fractional["amount"] = 12.5
            cases.append((try await post(fractional), 400, "invalid_amount"))
            var text = Self.body
            text["amount"] = "1234"
            cases.append((try await post(text), 400, "invalid_amount"))
            var currency = Self.body
            currency["currency"] = "XYZ"
            cases.append((try await post(currency), 400, "invalid_currency"))
            var missing = Self.body
            missing.removeValue(forKey: "reference")
            cases.append((try await post(missing), 400, "missing_field"))
            cases.append((try await post(raw: Data("{\"amount\": 12".utf8)), 400, "invalid_json"))
            cases.append(
                (try await post(raw: Data(repeating: UInt8(ascii: "a"), count: 200_000)), 413, "body_too_large"))
            cases.append((try await post(Self.body, token: "sk_wrong"), 401, "invalid_api_key"))
            cases.append((try await stack.send(.POST, "/v1/payments", json: Self.body), 401, "unauthorized"))
            var uncovered = Self.body
            uncovered["currency"] = "EUR"
            cases.append((try await post(uncovered), 422, "no_route"))
            for (reply, status, code) in cases {
                #expect(reply.status == status, "\(code): \(String(decoding: reply.body, as: UTF8.self))")
                #expect(reply.errorCode == code)
                #expect(reply.json["error"].flatMap { ($0 as? [String: Any])?["message"] as? String } != nil)
            }
            let unknownRoute = try await stack.send(.GET, "/v1/nothing", token: m.apiKey)
            #expect(unknownRoute.status == 404)
            #expect(unknownRoute.errorCode == "not_found")
        }
    }

    @Test func idempotencyKeyReplaysAndRefusesAnotherBody() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let first = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: Self.body, headers: ["Idempotency-Key": "k-1"])
            #expect(first.status == 201)
            let replay = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: Self.body, headers: ["Idempotency-Key": "k-1"])
            #expect(replay.status == 201)
            #expect(replay.json["id"] as? String == first.json["id"] as? String)
            #expect(replay.headers.contains { $0.0.lowercased() == "idempotent-replayed" })
            var other = Self.body
            other["amount"] = 999
            let conflict = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: other, headers: ["Idempotency-Key": "k-1"])
            #expect(conflict.status == 409)
            #expect(conflict.errorCode == "idempotency_key_reused")
        }
    }

    @Test func concurrentIdenticalRequestsMakeExactlyOnePayment() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            var unique = Self.body
            unique["reference"] = "concurrent-1"
            let payload = try JSONSerialization.data(withJSONObject: unique)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await stack.send(
                            .POST, "/v1/payments", token: m.apiKey, raw: payload,
                            headers: ["Idempotency-Key": "same", "Content-Type": "application/json"]
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 201 || $0 == 409 })
            #expect(statuses.contains(201))
            let list = try await stack.send(
                .GET, "/v1/payments?reference=concurrent-1&expand[]=attempts", token: m.apiKey
            ).json
            let payments = try #require(list["data"] as? [[String: Any]])
            #expect(payments.count == 1)
            // One payment, one attempt, one charge at the provider.
            let attempts = try #require(payments.first?["attempts"] as? [[String: Any]])
            #expect(attempts.count == 1)
            let reference = try #require(attempts.first?["id"] as? String)
            #expect(
                await stack.sandbox.citcon.charge(merchant: TestStack.citconMerchant.id, reference: reference) != nil)
        }
    }

    @Test func aTenantNeverSeesAnotherTenantsPayments() async throws {
        try await TestStack.with { stack in
            let a = try await stack.merchant(name: "A")
            let b = try await stack.merchant(name: "B")
            let created = try await stack.send(.POST, "/v1/payments", token: a.apiKey, json: Self.body)
            let id = try #require(created.json["id"] as? String)
            for (method, path) in [
                ("GET", "/v1/payments/\(id)"), ("POST", "/v1/payments/\(id)/cancel"),
                ("POST", "/v1/payments/\(id)/capture"), ("POST", "/v1/payments/\(id)/sync"),
                ("POST", "/v1/payments/\(id)/refunds"),
            ] {
                let reply = try await stack.send(
                    method == "GET" ? .GET : .POST, path, token: b.apiKey, json: method == "POST" ? [:] : nil)
                #expect(reply.status == 404, "\(method) \(path)")
                #expect(reply.errorCode == "not_found")
            }
            let listed = try await stack.send(.GET, "/v1/payments", token: b.apiKey).json
            #expect((listed["data"] as? [Any])?.isEmpty == true)
            #expect(try await stack.send(.GET, "/v1/payments/\(id)", token: a.apiKey).status == 200)
        }
    }

    @Test func listPaginatesWithACursor() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            for index in 0..<5 {
                var b = Self.body
                b["reference"] = "page-\(index)"
                #expect(try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: b).status == 201)
            }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await stack.send(
                    .GET, "/v1/payments?limit=2" + (cursor.map { "&starting_after=\($0)" } ?? ""), token: m.apiKey
                ).json
                let data = try #require(page["data"] as? [[String: Any]])
                seen += data.compactMap { $0["id"] as? String }
                cursor = page["next_cursor"] as? String
            } while cursor != nil
            #expect(seen.count == 5)
            #expect(Set(seen).count == 5)
        }
    }
}

struct RequestHashTests {
    @Test func keyOrderAndWhiteSpaceDoNotChangeTheHash() {
        let a = JSONBody(Data(#"{"amount":1234,"currency":"USD","nested":{"b":1,"a":2}}"#.utf8)).requestHash
        let b = JSONBody(Data(#"{ "nested": {"a": 2, "b": 1}, "currency": "USD", "amount": 1234 }"#.utf8)).requestHash
        let c = JSONBody(Data(#"{"amount":1235,"currency":"USD","nested":{"b":1,"a":2}}"#.utf8)).requestHash
        #expect(a == b)
        #expect(a != c)
    }
}
