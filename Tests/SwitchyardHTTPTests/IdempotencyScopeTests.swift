import Foundation
import Hummingbird
import NIOHTTP1
import ProviderSandbox
import Testing

@testable import SwitchyardHTTP

/// An `Idempotency-Key` belongs to the route that matched, not to the text of the path; a replay shows
/// the payment as it is now.
@Suite(.serialized) struct IdempotencyScopeTests {
    static let spellings = ["/v1/payments", "/v1/payments/", "//v1/payments", "/v1//payments"]

    static func text(_ reply: TestStack.Reply) -> String { String(decoding: reply.body, as: UTF8.self) }

    @Test func everySpellingOfACreateIsOnePayment() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let body: [String: Any] = [
                "amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "spelled",
            ]
            var ids: Set<String> = []
            for (index, path) in Self.spellings.enumerated() {
                let reply = try await stack.send(
                    .POST, path, token: m.apiKey, json: body, headers: ["Idempotency-Key": "one-key"])
                #expect(reply.status == 201, "\(path): \(Self.text(reply))")
                let replayed = reply.headers.contains { $0.0.lowercased() == "idempotent-replayed" }
                #expect(replayed == (index > 0), "\(path)")
                if let id = reply.json["id"] as? String { ids.insert(id) }
            }
            #expect(ids.count == 1)
            let list = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            let payments = list.json["data"] as? [[String: Any]] ?? []
            #expect(payments.count == 1)
            // One attempt, so one pending charge at the provider (its reference is the attempt's id).
            let attempts = payments.first?["attempts"] as? [[String: Any]] ?? []
            #expect(attempts.count == 1)
            let attempt = try #require(attempts.first?["id"] as? String)
            #expect(await stack.sandbox.citcon.charge(merchant: TestStack.citconMerchant.id, reference: attempt) != nil)
        }
    }

    @Test func aStoredErrorIsReplayedWithItsParam() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let body: [String: Any] = [
                "amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "pointed",
                "metadata": ["order": String(repeating: "x", count: 600)],
            ]
            var answers: [(Int, String?, String?, Bool)] = []
            for _ in 0..<2 {
                let reply = try await stack.send(
                    .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "bad-metadata"])
                let error = reply.json["error"] as? [String: Any]
                let replayed = reply.headers.contains { $0.0.lowercased() == "idempotent-replayed" }
                answers.append((reply.status, error?["code"] as? String, error?["param"] as? String, replayed))
            }
            #expect(answers[0].0 == 400 && answers[0].1 == "invalid_metadata" && answers[0].2 == "metadata.order")
            #expect(answers[1].0 == answers[0].0 && answers[1].1 == answers[0].1 && answers[1].2 == answers[0].2)
            #expect(answers[1].3, "the second answer is the stored one")
        }
    }

    @Test func everySpellingOfARefundIsOneRefund() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let flows = CitconEndToEndTests()
            let created = try await flows.payment(stack, m, amount: 5000)
            let id = try #require(created["id"] as? String)
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(created), method: "alipay")
            _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            let paths = [
                "/v1/payments/\(id)/refunds", "/v1/payments/\(id)/refunds/", "//v1/payments/\(id)/refunds",
                "/v1//payments//\(id)//refunds",
            ]
            var refundIds: Set<String> = []
            for path in paths {
                let reply = try await stack.send(
                    .POST, path, token: m.apiKey, json: ["amount": 1000], headers: ["Idempotency-Key": "refund-key"])
                #expect(reply.status == 201, "\(path): \(Self.text(reply))")
                if let refund = reply.json["id"] as? String { refundIds.insert(refund) }
            }
            #expect(refundIds.count == 1)
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect((payment["refunds"] as? [Any])?.count == 1)
            #expect(payment["amount_refunded"] as? Int == 1000)
            let refunds = await stack.sandbox.citcon.ledger().filter { $0.kind == .refund }
            #expect(refunds.map(\.amount) == [1000])
        }
    }

    @Test func aReplayNeverHandsOutAnExpiredSession() async throws {
        let clock = TestClock()
        try await TestStack.with(clock: clock) { stack in
            let m = try await stack.merchant()
            let body: [String: Any] = [
                "amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "replayed",
            ]
            let first = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "late"])
            #expect(first.status == 201)
            #expect(first.json["next_action"] is [String: Any])
            let session = try #require(first.json["session"] as? [String: Any])
            let expiresAt = try #require(
                (session["expires_at"] as? String).flatMap(ISO8601DateFormatter().date(from:)))
            clock.advance(by: expiresAt.timeIntervalSince(clock.now()) + 1)

            let replay = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "late"])
            #expect(replay.status == 201)
            #expect(replay.headers.contains { $0.0.lowercased() == "idempotent-replayed" && $0.1 == "true" })
            #expect(replay.json["id"] as? String == first.json["id"] as? String)
            #expect(replay.json["next_action"] == nil, "\(Self.text(replay))")
            #expect((replay.json["session"] as? [String: Any])?["status"] as? String == "expired")
        }
    }

    @Test func theScopedKeyIgnoresTheSpellingButNotTheRoute() {
        let parameters: Parameters = ["id": "pay_1"]
        let refund = IdempotencyGate.scopedKey(
            method: .post, route: "/v1/payments/{id}/refunds", parameters: parameters, key: "k")
        #expect(refund == "POST /v1/payments/pay_1/refunds k")
        let encoded: Parameters = ["id": "pay%5F1"]
        #expect(
            IdempotencyGate.scopedKey(
                method: .post, route: "/v1/payments/{id}/refunds", parameters: encoded, key: "k") == refund)
        #expect(
            IdempotencyGate.scopedKey(
                method: .post, route: "/v1/payments/{id}/capture", parameters: parameters, key: "k") != refund)
        let slash: Parameters = ["customer": "a%2Fb"]
        #expect(
            IdempotencyGate.scopedKey(
                method: .post, route: "/v1/customers/{customer}/vaulting-sessions", parameters: slash, key: "k")
                == "POST /v1/customers/a%2Fb/vaulting-sessions k")
    }
}
