import Foundation
import Testing

/// Every answer carries an `X-Request-Id`: the caller's when it is a sensible token, a fresh one otherwise,
/// on successes and errors alike.
struct RequestIDTests {
    private func requestID(_ reply: TestStack.Reply) -> String? {
        TenantLimitTests.header(reply, "X-Request-Id")
    }

    @Test func everyAnswerCarriesARequestID() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()

            // Without one, the server makes one: 32 hex digits, a new one per request.
            let first = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            let second = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            #expect(first.status == 200)
            let made = try #require(requestID(first))
            #expect(made.count == 32 && made.allSatisfy(\.isHexDigit), "\(made)")
            #expect(requestID(second) != made)

            // The caller's id is echoed, on an error answer too.
            let given = "shop-7f3a:retry.2"
            let ok = try await stack.send(.GET, "/v1/payments", token: m.apiKey, headers: ["X-Request-Id": given])
            #expect(requestID(ok) == given)
            let refused = try await stack.send(
                .GET, "/v1/payments", token: "not-a-key", headers: ["X-Request-Id": given])
            #expect(refused.status == 401)
            #expect(requestID(refused) == given)
            let unknownRoute = try await stack.send(.GET, "/v1/nothing-here", headers: ["X-Request-Id": given])
            #expect(unknownRoute.status == 404)
            #expect(requestID(unknownRoute) == given)

            // An id that is not a sensible token (too long, or with spaces or quotes) is replaced.
            for bad in [String(repeating: "a", count: 129), "two words", "quote\"d"] {
                let reply = try await stack.send(.GET, "/v1/payments", token: m.apiKey, headers: ["X-Request-Id": bad])
                let shown = try #require(requestID(reply))
                #expect(shown != bad)
                #expect(shown.count == 32 && shown.allSatisfy(\.isHexDigit))
            }
        }
    }
}
