import Foundation
import NIOHTTP1
import ProviderSandbox
import TestWaiting
import Testing

/// Per-tenant request rate and concurrency limits on the merchant API.
@Suite(.serialized) struct TenantLimitTests {
    static func header(_ reply: TestStack.Reply, _ name: String) -> String? {
        reply.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    @Test func aTenantOverItsRateGets429WithRetryAfterWhileAnotherIsServed() async throws {
        try await TestStack.with { stack in
            let a = try await stack.merchant(name: "Noisy")
            let b = try await stack.merchant(name: "Quiet")
            let policyURL = "/admin/v1/tenants/\(a.tenantId)/policy"
            let looser = try await stack.send(
                .PUT, policyURL, token: stack.operatorToken, json: ["requests_per_second": 1_000_000])
            #expect(looser.status == 422)
            #expect(looser.errorCode == "policy_loosened")
            let tighter = try await stack.send(
                .PUT, policyURL, token: stack.operatorToken, json: ["requests_per_second": 0.2, "burst": 3])
            #expect(tighter.status == 200)

            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(try await stack.send(.GET, "/v1/payments/pay_missing", token: a.apiKey).status)
            }
            #expect(statuses == [404, 404, 404])
            let limited = try await stack.send(.GET, "/v1/payments/pay_missing", token: a.apiKey)
            #expect(limited.status == 429)
            #expect(limited.errorCode == "rate_limited")
            let retryAfter = try #require(Self.header(limited, "Retry-After").flatMap { Int($0) })
            #expect(retryAfter >= 1 && retryAfter <= 5)
            // Another spelling of the path is the same tenant's budget.
            let spelled = try await stack.send(.GET, "//v1/payments/pay_missing", token: a.apiKey)
            #expect(spelled.status == 429)

            for _ in 0..<10 {
                let served = try await stack.send(.GET, "/v1/payments/pay_missing", token: b.apiKey)
                #expect(served.status == 404)
            }
            // The operator and the health check are not counted against tenants, and a probe that carries
            // the limited tenant's key is answered all the same.
            #expect(try await stack.send(.GET, "/health").status == 200)
            #expect(try await stack.send(.GET, "/v1/payments/pay_missing", token: a.apiKey).status == 429)
            for _ in 0..<5 {
                #expect(try await stack.send(.GET, "/health", token: a.apiKey).status == 200)
                #expect(try await stack.send(.GET, "/ready", token: a.apiKey).status == 200)
            }
            let view = try await stack.send(.GET, policyURL, token: stack.operatorToken)
            #expect(view.status == 200)
            let effective = (view.json["effective"] as? [String: Any])?["tenants"] as? [String: Any]
            #expect(effective?["burst"] as? Int == 3)
        }
    }

    @Test func aTenantAtItsConcurrencyCapGets429UntilItsRequestEnds() async throws {
        try await TestStack.with { stack in
            let a = try await stack.merchant(name: "Busy")
            let b = try await stack.merchant(name: "Other")
            let tighter = try await stack.send(
                .PUT, "/admin/v1/tenants/\(a.tenantId)/policy", token: stack.operatorToken,
                json: ["max_concurrent_requests": 1])
            #expect(tighter.status == 200)
            await stack.sandbox.citcon.faults.add([SandboxFault(kind: .latency, count: 1, latencyMs: 3_000)])
            let slow = Task {
                try await stack.send(
                    .POST, "/v1/payments", token: a.apiKey,
                    json: ["amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "slow"])
            }
            // Once the provider holds the slow request, the tenant's next request is over its cap.
            try await Poll.holds("the slow call started", within: .seconds(5), every: .milliseconds(20)) {
                await stack.sandbox.citcon.faults.activeRules.isEmpty
            }
            try #require(await stack.sandbox.citcon.faults.activeRules.isEmpty, "the slow call did not start")
            let reply = try await stack.send(.GET, "/v1/payments/pay_missing", token: a.apiKey)
            #expect(reply.status == 429)
            #expect(reply.errorCode == "too_many_concurrent_requests")
            #expect(Self.header(reply, "Retry-After") == "1")
            let other = try await stack.send(.GET, "/v1/payments/pay_missing", token: b.apiKey)
            #expect(other.status == 404)
            #expect(try await slow.value.status == 201)
            let after = try await stack.send(.GET, "/v1/payments/pay_missing", token: a.apiKey)
            #expect(after.status == 404)
        }
    }
}
