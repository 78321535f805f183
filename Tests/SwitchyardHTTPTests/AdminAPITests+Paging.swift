import Foundation
import Testing

/// The audit log pages like every list, and a tenant filter that names no tenant is refused.
extension AdminAPITests {
    @Test func theAuditLogPagesAndRefusesAnUnknownTenant() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            func audit(_ query: String) async throws -> TestStack.Reply {
                try await stack.send(.GET, "/admin/v1/audit?\(query)", token: stack.operatorToken)
            }
            let whole = try await audit("tenant=\(m.tenantId)&limit=100")
            let all = MerchantAPITests.ids(whole)
            #expect(all.count >= 3, "tenant, key, account and routing were audited")
            let first = try await audit("tenant=\(m.tenantId)&limit=2")
            #expect(MerchantAPITests.ids(first) == Array(all.prefix(2)))
            #expect(first.json["has_more"] as? Bool == true)
            let rest = try await audit("tenant=\(m.tenantId)&limit=100&starting_after=\(all[1])")
            #expect(MerchantAPITests.ids(rest) == Array(all.dropFirst(2)))
            for query in ["tenant=garbage", "tenant=\(UUID().uuidString)", "starting_after=nope", "starting_after=-1"] {
                let refused = try await audit(query)
                #expect(refused.status == 400 && refused.errorCode == "invalid_parameter", "\(query)")
                let param = (refused.json["error"] as? [String: Any])?["param"] as? String
                #expect(param == String(query.prefix { $0 != "=" }), "\(query)")
            }
            #expect(try await audit("limit=500").errorCode == "invalid_limit")
        }
    }
}
