import Foundation
import NIOHTTP1
import SwitchyardCore
import Testing

@testable import SwitchyardHTTP

/// Named operators with roles: each acts only where its role grants the route's permission, every audit
/// entry names who acted, and a rotated or revoked token is refused at once.
@Suite(.serialized)
struct OperatorAccessTests {
    /// Adds an operator through the bootstrap token: (id, token).
    static func add(_ stack: TestStack, _ name: String, _ role: String) async throws -> (id: String, token: String) {
        let created = try await stack.send(
            .POST, "/admin/v1/operators", token: stack.operatorToken, json: ["name": name, "role": role])
        try #require(created.status == 201, "\(created.json)")
        let token = try #require(created.json["token"] as? String)
        return (try #require(created.json["id"] as? String), token)
    }

    static func message(_ reply: TestStack.Reply) -> String {
        (reply.json["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    @Test func operatorsActWithinTheirRolesAndTheAuditNamesEach() async throws {
        try await TestStack.with { stack in
            let support = try await Self.add(stack, "Ana Support", "support")
            let viewer = try await Self.add(stack, "Vic Viewer", "viewer")
            let admin = try await Self.add(stack, "Ada Admin", "admin")
            #expect(support.token.hasPrefix("op_") && support.token.count == 51)

            // Bad input: a taken name (whatever its case), an unknown role, an expiry in the past, no name.
            let taken = try await stack.send(
                .POST, "/admin/v1/operators", token: stack.operatorToken,
                json: ["name": "ana support", "role": "viewer"])
            #expect(taken.status == 409 && taken.errorCode == "operator_name_taken")
            let role = try await stack.send(
                .POST, "/admin/v1/operators", token: stack.operatorToken, json: ["name": "Rex", "role": "root"])
            #expect(role.status == 400 && (role.json["error"] as? [String: Any])?["param"] as? String == "role")
            let past = try await stack.send(
                .POST, "/admin/v1/operators", token: stack.operatorToken,
                json: ["name": "Old", "role": "viewer", "expires_at": "2020-01-01T00:00:00Z"])
            #expect(past.status == 400 && past.errorCode == "invalid_expires_at")
            let blank = try await stack.send(
                .POST, "/admin/v1/operators", token: stack.operatorToken, json: ["name": " ", "role": "viewer"])
            #expect(blank.status == 400)

            // Who am I: the role's permissions, no break glass.
            let me = try await stack.send(.GET, "/admin/v1/me", token: support.token)
            #expect((me.json["operator"] as? [String: Any])?["name"] as? String == "Ana Support")
            #expect(me.json["break_glass"] as? Bool == false)
            let permissions = me.json["permissions"] as? [String] ?? []
            #expect(permissions.contains("payments.act") && permissions.contains("disputes.act"))
            #expect(!permissions.contains("tenants.manage"))

            // A viewer reads; writing is refused naming the permission, and audited.
            #expect(try await stack.send(.GET, "/admin/v1/tenants", token: viewer.token).status == 200)
            let refused = try await stack.send(.POST, "/admin/v1/tenants", token: viewer.token, json: ["name": "x"])
            #expect(refused.status == 403 && refused.errorCode == "missing_permission")
            #expect(Self.message(refused).contains("tenants.manage"))
            let reload = try await stack.send(.POST, "/admin/v1/plugins/reload", token: support.token)
            #expect(reload.status == 403 && Self.message(reload).contains("plugins.manage"))
            #expect(try await stack.send(.GET, "/admin/v1/operators", token: support.token).status == 403)

            // An admin acts; the audit names it, its role, the request and where it came from.
            let tenant = try await stack.send(.POST, "/admin/v1/tenants", token: admin.token, json: ["name": "Shop"])
            #expect(tenant.status == 201)
            let tenantId = try #require(tenant.json["id"] as? String)
            let audit = try await stack.send(.GET, "/admin/v1/audit?tenant=\(tenantId)", token: viewer.token)
            let created = try #require(
                (audit.json["data"] as? [[String: Any]])?.first { $0["action"] as? String == "tenant.create" })
            #expect(created["actor"] as? String == "operator:Ada Admin")
            #expect((created["operatorId"] as? String)?.lowercased() == admin.id)
            #expect(created["operatorRole"] as? String == "admin")
            #expect((created["requestId"] as? String)?.isEmpty == false)
            #expect(created["sourceAddress"] as? String == "127.0.0.1")
            let byViewer = try await stack.send(.GET, "/admin/v1/audit?operator=\(viewer.id)", token: admin.token)
            let denied = (byViewer.json["data"] as? [[String: Any]]) ?? []
            #expect(denied.map { $0["action"] as? String } == ["operator.denied"])
            #expect(denied.first?["target"] as? String == "POST /admin/v1/tenants")
            #expect((denied.first?["details"] as? [String: String])?["permission"] == "tenants.manage")
            let badFilter = try await stack.send(.GET, "/admin/v1/audit?operator=nobody", token: admin.token)
            #expect(badFilter.status == 400)

            // The list shows no token; a rotation refuses the old token at once, a revocation the operator's.
            let list = try await stack.send(.GET, "/admin/v1/operators", token: admin.token)
            let listed = (list.json["data"] as? [[String: Any]]) ?? []
            #expect(listed.count == 3 && listed.allSatisfy { $0["token"] == nil || $0["token"] is NSNull })
            let rotated = try await stack.send(
                .POST, "/admin/v1/operators/\(support.id)/rotate", token: admin.token)
            #expect(rotated.status == 201)
            let fresh = try #require(rotated.json["token"] as? String)
            #expect(try await stack.send(.GET, "/admin/v1/me", token: support.token).status == 401)
            #expect(try await stack.send(.GET, "/admin/v1/me", token: fresh).status == 200)
            let revoked = try await stack.send(.DELETE, "/admin/v1/operators/\(viewer.id)", token: admin.token)
            #expect(revoked.status == 200 && revoked.json["revoked_at"] is String)
            #expect(try await stack.send(.GET, "/admin/v1/tenants", token: viewer.token).status == 401)
            let again = try await stack.send(.POST, "/admin/v1/operators/\(viewer.id)/rotate", token: admin.token)
            #expect(again.status == 409 && again.errorCode == "operator_revoked")
            #expect(
                try await stack.send(.DELETE, "/admin/v1/operators/\(UUID())", token: admin.token).status == 404)
        }
    }

    /// The admin routes, each called by a viewer and by a support operator: refused with 403 exactly when
    /// the role lacks the permission the route's contract names.
    @Test func everyAdminRouteIsCheckedAgainstThePermissionTable() async throws {
        let routes = RouteContracts.admin + RouteContracts.open.filter { $0.permission != nil }
        #expect(routes.allSatisfy { $0.permission != nil }, "\(routes.filter { $0.permission == nil }.map(\.key))")
        try await TestStack.with { stack in
            let viewer = try await Self.add(stack, "viewer", "viewer")
            let support = try await Self.add(stack, "support", "support")
            for (role, token) in [(OperatorRole.viewer, viewer.token), (.support, support.token)] {
                for route in routes {
                    let path = route.path.replacing(/\{[a-z]+\}/) { _ in UUID().uuidString.lowercased() }
                    let method = HTTPMethod(rawValue: route.method.rawValue)
                    let body: Any? = [.POST, .PUT, .PATCH].contains(method) ? [String: Any]() : nil
                    let reply = try await stack.send(method, path, token: token, json: body)
                    let permission = try #require(route.permission)
                    if role.grants(permission) {
                        #expect(reply.status != 403, "\(role) \(route.key): \(reply.status) \(reply.json)")
                    } else {
                        #expect(
                            reply.status == 403 && Self.message(reply).contains(permission.rawValue),
                            "\(role) \(route.key): \(reply.status)")
                    }
                    #expect(reply.status < 500, "\(role) \(route.key): \(reply.status)")
                }
            }
        }
    }
}
