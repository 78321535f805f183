import Hummingbird
import SwitchyardCore

/// `GET /admin/v1/me`: who the presented operator credential belongs to, its role and permissions. The
/// bootstrap token (`SWITCHYARD_OPERATOR_TOKEN`) answers as the break-glass admin.
struct OperatorIdentityController: Sendable {
    /// The body of `GET /admin/v1/me`.
    struct Identity: Encodable {
        struct Operator: Encodable {
            var id: String?
            var name: String
            var role: OperatorRole

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(name, forKey: .name)
                try container.encode(role, forKey: .role)
            }

            enum CodingKeys: String, CodingKey { case id, name, role }
        }

        var `operator`: Operator
        var permissions: [OperatorPermission]
        var breakGlass: Bool

        enum CodingKeys: String, CodingKey {
            case `operator`, permissions
            case breakGlass = "break_glass"
        }

        /// What `identity` is and may do.
        init(_ identity: OperatorIdentity) {
            self.operator = Operator(
                id: identity.id?.uuidString.lowercased(), name: identity.name, role: identity.role)
            self.permissions = identity.role.orderedPermissions
            self.breakGlass = identity.breakGlass
        }
    }

    func register(on admin: RouterGroup<AppContext>) {
        admin.get("me") { _, context in
            JSONIO.response(.ok, Identity(try context.operatorIdentity))
        }
    }
}
