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

        /// The bootstrap token's identity: the break-glass admin.
        static let bootstrap = Identity(
            operator: Operator(id: nil, name: "bootstrap", role: .admin),
            permissions: OperatorRole.admin.orderedPermissions, breakGlass: true)
    }

    func register(on admin: RouterGroup<AppContext>) {
        admin.get("me") { _, _ in
            JSONIO.response(.ok, Identity.bootstrap)
        }
    }
}
