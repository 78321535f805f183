import Foundation
import ProviderSandbox
import Testing

/// Citcon's 24 h bearer token through the running server: issued once for a burst of payments, and
/// replaced once (with one retry of each rejected call) after the sandbox expires it.
@Suite(.serialized) struct CitconTokenEndToEndTests {
    /// `count` concurrent payments; their replies.
    func payments(_ stack: TestStack, _ m: TestStack.Merchant, count: Int) async throws -> [TestStack.Reply] {
        try await withThrowingTaskGroup(of: TestStack.Reply.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await stack.send(
                        .POST, "/v1/payments", token: m.apiKey,
                        json: [
                            "amount": 100 + index, "currency": "USD", "country": "US", "method": "alipay",
                            "reference": "burst-\(index)-\(UUID().uuidString.prefix(8))",
                        ])
                }
            }
            return try await group.reduce(into: [TestStack.Reply]()) { $0.append($1) }
        }
    }

    /// How many of the replies' payments the sandbox holds a charge for.
    func chargesKnown(_ stack: TestStack, _ replies: [TestStack.Reply]) async -> Int {
        var known = 0
        for reply in replies {
            let attempts = reply.json["attempts"] as? [[String: Any]] ?? []
            guard attempts.count == 1, let id = attempts[0]["provider_payment_id"] as? String else { continue }
            if await stack.sandbox.citcon.charge(id: id) != nil { known += 1 }
        }
        return known
    }

    func issued(_ stack: TestStack) async -> Int {
        await stack.sandbox.citcon.tokensIssued(merchant: TestStack.citconMerchant.id, kind: .server)
    }

    @Test func twoHundredConcurrentPaymentsOnAColdCacheGetOneToken() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            #expect(await issued(stack) == 0)
            let clock = ContinuousClock()
            let start = clock.now
            let replies = try await payments(stack, m, count: 200)
            let elapsed = clock.now - start
            #expect(replies.map(\.status) == Array(repeating: 201, count: 200))
            #expect(replies.allSatisfy { $0.json["status"] as? String == "requires_action" })
            #expect(await issued(stack) == 1, "one token for the whole burst")
            #expect(await chargesKnown(stack, replies) == 200, "one attempt and one sandbox charge per payment")
            print("200 concurrent Citcon payments on a cold token cache took \(elapsed)")
        }
    }

    @Test func anExpiredTokenIsReplacedOnceAndEachCallRetriedOnce() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let first = try await payments(stack, m, count: 1)
            #expect(first.first?.status == 201)
            #expect(await issued(stack) == 1)

            // The provider now answers 4010 to the cached token: one new token, one retry, one attempt.
            await stack.sandbox.citcon.expireTokens(merchant: TestStack.citconMerchant.id)
            let retried = try await payments(stack, m, count: 1)
            let reply = try #require(retried.first)
            #expect(reply.status == 201)
            #expect(reply.json["status"] as? String == "requires_action")
            let attempts = try #require(reply.json["attempts"] as? [[String: Any]])
            #expect(attempts.map { $0["outcome"] as? String } == ["pending"])
            #expect(await chargesKnown(stack, [reply]) == 1)
            #expect(await issued(stack) == 2)

            // Twenty calls rejected at once still lead to a single new token.
            await stack.sandbox.citcon.expireTokens(merchant: TestStack.citconMerchant.id)
            let burst = try await payments(stack, m, count: 20)
            #expect(burst.map(\.status) == Array(repeating: 201, count: 20))
            #expect(burst.allSatisfy { $0.json["status"] as? String == "requires_action" })
            #expect(await issued(stack) == 3)
            #expect(await chargesKnown(stack, burst) == 20, "each rejected call succeeded on its one retry")
        }
    }
}
