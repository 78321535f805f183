import Foundation
import SwitchyardCore
import Testing

/// Operators signed in by a trusted reverse proxy: believed from its addresses only, within the role their
/// groups map to, named in the audit.
@Suite(.serialized)
struct OperatorSingleSignOnHTTPTests {
    static func policy(trusting proxies: [String]) -> @Sendable (inout PlatformPolicy) -> Void {
        { policy in
            policy.operatorSSO.enabled = true
            policy.operatorSSO.trustedProxies = proxies
            policy.operatorSSO.groupRoles = ["payments-support": "support", "platform": "admin"]
        }
    }

    static let alice = ["X-Forwarded-User": "alice@example.com", "X-Forwarded-Groups": "staff, payments-support"]

    @Test func aTrustedProxysPersonActsWithinTheirGroupsRole() async throws {
        try await TestStack.with(policy: Self.policy(trusting: ["127.0.0.0/8"])) { stack in
            let me = try await stack.send(.GET, "/admin/v1/me", headers: Self.alice)
            #expect(me.status == 200)
            let identity = me.json["operator"] as? [String: Any]
            #expect(identity?["name"] as? String == "sso:alice@example.com")
            #expect(identity?["role"] as? String == "support")
            let refused = try await stack.send(.POST, "/admin/v1/tenants", json: ["name": "x"], headers: Self.alice)
            #expect(refused.status == 403 && refused.errorCode == "missing_permission")
            let admin = ["X-Forwarded-User": "bob", "X-Forwarded-Groups": "platform"]
            let created = try await stack.send(.POST, "/admin/v1/tenants", json: ["name": "Shop"], headers: admin)
            #expect(created.status == 201)
            let audit = try await stack.send(.GET, "/admin/v1/audit", headers: admin)
            let entry = (audit.json["data"] as? [[String: Any]])?.first { $0["action"] as? String == "tenant.create" }
            #expect(entry?["actor"] as? String == "operator:sso:bob")
            let nobody = try await stack.send(
                .GET, "/admin/v1/me", headers: ["X-Forwarded-User": "eve", "X-Forwarded-Groups": "marketing"])
            #expect(nobody.status == 403)
        }
    }

    @Test func theHeadersFromAnyOtherAddressAreRefusedAndIgnoredWhenOff() async throws {
        try await TestStack.with(policy: Self.policy(trusting: ["10.0.0.0/8"])) { stack in
            let refused = try await stack.send(.GET, "/admin/v1/me", headers: Self.alice)
            #expect(refused.status == 403 && refused.errorCode == "forbidden")
            #expect(
                try await stack.send(.GET, "/admin/v1/me", token: stack.operatorToken, headers: Self.alice).status
                    == 200)
        }
        try await TestStack.with { stack in
            let ignored = try await stack.send(.GET, "/admin/v1/me", headers: Self.alice)
            #expect(ignored.status == 401, "off by default: the headers sign nobody in")
        }
    }
}
