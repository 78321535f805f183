import Foundation
import SwitchyardHTTP
import Testing

@Suite(.serialized) struct OperatorIdentityTests {
    @Test func theBootstrapTokenAnswersAsTheBreakGlassAdmin() async throws {
        try await TestStack.with { stack in
            let me = try await stack.send(.GET, "/admin/v1/me", token: stack.operatorToken)
            #expect(me.status == 200)
            let identity = try #require(me.json["operator"] as? [String: Any])
            #expect(identity["id"] is NSNull)
            #expect(identity["name"] as? String == "bootstrap")
            #expect(identity["role"] as? String == "admin")
            #expect(me.json["break_glass"] as? Bool == true)
            let permissions = me.json["permissions"] as? [String] ?? []
            #expect(permissions.contains("operators.manage") && permissions.contains("platform.read"))
            #expect(try await stack.send(.GET, "/admin/v1/me", token: "wrong-token").status == 401)
        }
    }
}
