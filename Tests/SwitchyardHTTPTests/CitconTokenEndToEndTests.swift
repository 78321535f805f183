import AsyncHTTPClient
import Foundation
import NIOCore
import ProviderSandbox
import Testing

/// Citcon's 24 h bearer token through the running server: issued once for a burst of payments, and
/// replaced once (with one retry of each rejected call) after the sandbox expires it.
@Suite(.serialized) struct CitconTokenEndToEndTests {
    /// `count` concurrent payments, each on its own connection; their replies.
    func payments(_ stack: TestStack, _ m: TestStack.Merchant, count: Int) async throws -> [TestStack.Reply] {
        // The shared client allows 8 connections per host and fails requests queued past its connect
        // timeout: a burst gets a client of its own, with a connection per request.
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(
                timeout: .init(connect: .seconds(60), read: .seconds(60)),
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: count)))
        do {
            let replies = try await withThrowingTaskGroup(of: TestStack.Reply.self) { group in
                for index in 0..<count {
                    group.addTask {
                        try await Self.createPayment(stack, m, index: index, client: client)
                    }
                }
                return try await group.reduce(into: [TestStack.Reply]()) { $0.append($1) }
            }
            try await client.shutdown()
            return replies
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    static func createPayment(_ stack: TestStack, _ m: TestStack.Merchant, index: Int, client: HTTPClient)
        async throws -> TestStack.Reply
    {
        var request = HTTPClientRequest(url: stack.baseURL + "/v1/payments")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(m.apiKey)")
        request.headers.add(name: "Content-Type", value: "application/json")
        let body: [String: Any] = [
            "amount": 100 + index, "currency": "USD", "country": "US", "method": "alipay",
            "reference": "burst-\(index)-\(UUID().uuidString.prefix(8))",
        ]
        request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
        let response = try await client.execute(request, timeout: .seconds(120))
        let data = try await response.body.collect(upTo: 1 << 20)
        return TestStack.Reply(
            status: Int(response.status.code), body: Data(buffer: data),
            headers: response.headers.map { ($0.name, $0.value) })
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
        // One tenant's 200 requests at once: within its concurrency limit here, and queued for the stack's
        // four database connections for longer than the default wait on a loaded test machine.
        try await TestStack.with(policy: {
            $0.tenants.maxConcurrentRequests = 200
            $0.server.databaseAcquireTimeoutMs = 120_000
            // Each request has its own connection, all from 127.0.0.1.
            $0.server.maxConnectionsPerAddress = 1_000
        }) { stack in
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
