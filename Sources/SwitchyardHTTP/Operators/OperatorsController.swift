import Foundation
import Hummingbird
import SwitchyardCore
import SwitchyardCrypto

/// `/admin/v1/operators`: the team's named operators. `POST` (name, role, optional expires_at) answers the
/// token once; `GET` lists; `POST …/{id}/rotate` answers a new token once (the old one is refused at once);
/// `DELETE …/{id}` revokes. Only a hash of a token is stored.
struct OperatorsController: Sendable {
    let operators: any OperatorRepository
    let bodyLimit: Int
    let clock: @Sendable () -> Date

    /// The body of `POST /admin/v1/operators`.
    struct Create: Decodable {
        var name: String
        var role: String
        var expiresAt: Date?

        enum CodingKeys: String, CodingKey {
            case name, role
            case expiresAt = "expires_at"
        }
    }

    /// An operator as the admin API shows it; `token` only when made or rotated.
    struct Body: Encodable {
        var id: String
        var object = "operator"
        var name: String
        var role: String
        var tokenPrefix: String
        var createdAt: Date
        var expiresAt: Date?
        var revokedAt: Date?
        var lastUsedAt: Date?
        var token: String?

        enum CodingKeys: String, CodingKey {
            case id, object, name, role, token
            case tokenPrefix = "token_prefix"
            case createdAt = "created_at"
            case expiresAt = "expires_at"
            case revokedAt = "revoked_at"
            case lastUsedAt = "last_used_at"
        }

        init(_ o: Operator, token: String? = nil) {
            id = o.id.uuidString.lowercased()
            name = o.name
            role = o.role.rawValue
            tokenPrefix = o.tokenPrefix
            createdAt = o.createdAt
            expiresAt = o.expiresAt
            revokedAt = o.revokedAt
            lastUsedAt = o.lastUsedAt
            self.token = token
        }
    }

    func register(on admin: RouterGroup<AppContext>) {
        admin.post("operators") { request, context in
            let body = try await JSONIO.body(request, context, limit: bodyLimit).decode(Create.self)
            try Operator.validate(name: body.name)
            guard let role = OperatorRole(rawValue: body.role) else {
                let roles = OperatorRole.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError(.invalidParameter, "role must be one of \(roles)", param: "role")
            }
            if let expiresAt = body.expiresAt, expiresAt <= clock() {
                throw APIError(.invalidExpiresAt, "expires_at must be in the future", param: "expires_at")
            }
            let token = Self.newToken()
            let created = try await operators.createOperator(
                name: body.name, role: role, expiresAt: body.expiresAt, secret: token, actor: "operator")
            return JSONIO.response(.created, Body(created, token: token))
        }
        admin.get("operators") { _, _ in
            let all = try await operators.operators()
            return JSONIO.response(.ok, OperatorList(data: all.map { Body($0) }))
        }
        admin.post("operators/:operator/rotate") { _, context in
            let token = Self.newToken()
            let rotated = try await operators.rotateOperator(id: try Self.id(context), secret: token, actor: "operator")
            return JSONIO.response(.created, Body(rotated, token: token))
        }
        admin.delete("operators/:operator") { _, context in
            JSONIO.response(.ok, Body(try await operators.revokeOperator(id: try Self.id(context), actor: "operator")))
        }
    }

    /// Every operator, oldest first.
    struct OperatorList: Encodable {
        var object = "list"
        var data: [Body]
    }

    /// The operator named in the path; `404` when it is no operator's id.
    static func id(_ context: AppContext) throws -> UUID {
        guard let text = context.parameters.get("operator"), let id = UUID(uuidString: text) else {
            throw CoreError.notFound("operator")
        }
        return id
    }

    static func newToken() -> String {
        OperatorTokens.token(random: SecureRandom.bytes(24))
    }
}
