import Foundation
import TestWaiting
import Testing

/// API keys: rotation with a grace period for the old key, and last-used times.
@Suite(.serialized)
struct APIKeyRotationTests {
    @Test func aRotatedKeyStaysValidForItsGracePeriodOnly() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let keys = try await stack.send(
                .GET, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: stack.operatorToken)
            let old = try #require((keys.json["data"] as? [[String: Any]])?.first)
            let oldId = try #require(old["id"] as? String)
            #expect(try await stack.send(.GET, "/v1/payments", token: m.apiKey).status == 200)
            let used = try await stack.send(
                .GET, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: stack.operatorToken)
            #expect((used.json["data"] as? [[String: Any]])?.first?["last_used_at"] is String, "last use recorded")

            let rotated = try await stack.send(
                .POST, "/admin/v1/tenants/\(m.tenantId)/api-keys/\(oldId)/rotate", token: stack.operatorToken,
                json: ["grace_seconds": 3])
            #expect(rotated.status == 201, "\(rotated.json)")
            let secret = try #require(rotated.json["secret"] as? String)
            #expect(rotated.json["scopes"] as? [String] == old["scopes"] as? [String])
            #expect(secret != m.apiKey)
            #expect(try await stack.send(.GET, "/v1/payments", token: secret).status == 200)
            #expect(try await stack.send(.GET, "/v1/payments", token: m.apiKey).status == 200, "old key in grace")
            // The grace ends on the server's clock: asked again until the old key is refused.
            var expired = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            try await Poll.holds("the grace's end", within: .seconds(10), every: .milliseconds(250)) {
                expired = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
                return expired.status != 200
            }
            #expect(expired.status == 401)
            #expect(expired.errorCode == "invalid_api_key")
            #expect(try await stack.send(.GET, "/v1/payments", token: secret).status == 200)

            let again = try await stack.send(
                .POST, "/admin/v1/tenants/\(m.tenantId)/api-keys/\(oldId)/rotate", token: stack.operatorToken)
            #expect(again.status == 409)
            #expect(again.errorCode == "key_not_usable")
            let bad = try await stack.send(
                .POST, "/admin/v1/tenants/\(m.tenantId)/api-keys/\(oldId)/rotate", token: stack.operatorToken,
                json: ["grace_seconds": -1])
            #expect(bad.status == 400)
            let unknown = try await stack.send(
                .POST, "/admin/v1/tenants/\(m.tenantId)/api-keys/\(UUID().uuidString)/rotate",
                token: stack.operatorToken)
            #expect(unknown.status == 404)
            let audit = try await stack.send(.GET, "/admin/v1/audit?tenant=\(m.tenantId)", token: stack.operatorToken)
            let actions = (audit.json["data"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
            #expect(actions.contains("api_key.rotate"))
        }
    }

    @Test func aKeyIsReadFromTheAuthorizationHeaderInAnyCaseAndSpacing() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            for header in ["bearer \(m.apiKey)", "BEARER \t \(m.apiKey)", "Bearer  \(m.apiKey)\t\t"] {
                let reply = try await stack.send(.GET, "/v1/payments", headers: ["Authorization": header])
                #expect(reply.status == 200, "\(header.prefix(9))")
            }
            for header in ["Bearer", "Bearer \t ", "Basic \(m.apiKey)", "Bearer \(m.apiKey) x"] {
                let reply = try await stack.send(.GET, "/v1/payments", headers: ["Authorization": header])
                #expect(reply.status == 401, "\(header.prefix(9))")
            }
        }
    }
}
