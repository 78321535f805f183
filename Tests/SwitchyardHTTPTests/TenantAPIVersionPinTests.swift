import Foundation
import TestWaiting
import Testing

/// An admin moves a tenant's merchant API version pin; the tenant's next answers come in the new version.
@Suite(.serialized)
struct TenantAPIVersionPinTests {
    @Test func anAdminMovesThePinAndOtherRolesMayNot() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let support = try await OperatorAccessTests.add(stack, "Sam Support", "support")
            let path = "/admin/v1/tenants/\(m.tenantId)"
            let before = try await stack.send(.GET, path, token: stack.operatorToken)
            #expect(before.json["api_version"] as? String == "2026-12-01")

            let refused = try await stack.send(.PATCH, path, token: support.token, json: ["api_version": "2026-06-01"])
            #expect(refused.status == 403 && refused.errorCode == "missing_permission")
            let unknown = try await stack.send(
                .PATCH, path, token: stack.operatorToken, json: ["api_version": "2025-01-01"])
            #expect(unknown.status == 400 && unknown.errorCode == "invalid_api_version")
            #expect((unknown.json["error"] as? [String: Any])?["param"] as? String == "api_version")

            let moved = try await stack.send(
                .PATCH, path, token: stack.operatorToken, json: ["api_version": "2026-06-01"])
            #expect(moved.status == 200 && moved.json["api_version"] as? String == "2026-06-01")
            // The merchant's answers follow within the version cache's lifetime.
            try await Poll.until("answers in 2026-06-01", within: .seconds(10), every: .milliseconds(200)) {
                let reply = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
                return reply.headers.first { $0.0.lowercased() == "switchyard-version" }?.1 == "2026-06-01"
            }
            let audit = try await stack.send(.GET, "/admin/v1/audit?tenant=\(m.tenantId)", token: stack.operatorToken)
            let entry = (audit.json["data"] as? [[String: Any]])?.first {
                $0["action"] as? String == "tenant.api_version"
            }
            #expect((entry?["details"] as? [String: String])?["to"] == "2026-06-01")
            #expect((entry?["details"] as? [String: String])?["from"] == "2026-12-01")
        }
    }
}
