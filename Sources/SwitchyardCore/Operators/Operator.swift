import Foundation

/// A named member of the team that runs the platform, with a built-in ``OperatorRole``. Its token is
/// shown once, when it is made or rotated; only a hash of it is stored.
public struct Operator: Sendable, Equatable {
    public var id: UUID
    /// Unique among operators (compared without case).
    public var name: String
    public var role: OperatorRole
    /// The token's first characters, to tell tokens apart in lists and logs (`op_` and eight more).
    public var tokenPrefix: String
    public var createdAt: Date
    /// After this the token is refused; nil: it does not expire.
    public var expiresAt: Date?
    /// Set when revoked; a revoked operator's token is refused.
    public var revokedAt: Date?
    /// Last time its token was accepted, recorded at most once a minute.
    public var lastUsedAt: Date?

    public init(
        id: UUID, name: String, role: OperatorRole, tokenPrefix: String, createdAt: Date, expiresAt: Date? = nil,
        revokedAt: Date? = nil, lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.role = role
        self.tokenPrefix = tokenPrefix
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.lastUsedAt = lastUsedAt
    }

    /// Whether its token is accepted at `now`: not revoked and not expired.
    public func isUsable(at now: Date) -> Bool {
        revokedAt == nil && expiresAt.map { now < $0 } ?? true
    }

    /// The longest name accepted.
    public static let maximumNameLength = 100

    /// Checks a new operator's name: 1 to ``maximumNameLength`` printable characters.
    public static func validate(name: String) throws {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed == name, name.count <= maximumNameLength,
            name.unicodeScalars.allSatisfy({ !CharacterSet.controlCharacters.contains($0) })
        else {
            throw CoreError(
                .invalidParameter,
                "name must be 1 to \(maximumNameLength) printable characters without surrounding spaces", param: "name")
        }
    }
}

/// Who is behind an admin request: a stored operator, or the bootstrap token (the break-glass admin).
public struct OperatorIdentity: Sendable, Equatable {
    /// The stored operator's id; nil for the bootstrap token.
    public var id: UUID?
    public var name: String
    public var role: OperatorRole
    /// True for the bootstrap token (`SWITCHYARD_OPERATOR_TOKEN`).
    public var breakGlass: Bool

    public init(id: UUID?, name: String, role: OperatorRole, breakGlass: Bool = false) {
        self.id = id
        self.name = name
        self.role = role
        self.breakGlass = breakGlass
    }

    /// The bootstrap token's identity.
    public static let bootstrap = OperatorIdentity(id: nil, name: "bootstrap", role: .admin, breakGlass: true)

    /// The identity of a stored operator.
    public init(_ op: Operator) {
        self.init(id: op.id, name: op.name, role: op.role)
    }

    /// The audit log's actor: `operator:<name>`.
    public var actor: String { "operator:\(name)" }
}

/// Storage of operators. Every method commits before it returns; every change is audited.
public protocol OperatorRepository: Sendable {
    /// Stores a new operator whose token is `secret` (only its hash is kept); `409 operator_name_taken`
    /// when an operator (revoked or not) already has the name.
    func createOperator(name: String, role: OperatorRole, expiresAt: Date?, secret: String, actor: String)
        async throws -> Operator
    /// Every operator, oldest first, revoked ones included.
    func operators() async throws -> [Operator]
    /// Replaces the operator's token with `secret`; the old one is refused at once. `404` for an unknown
    /// operator, `409 operator_revoked` for a revoked one.
    func rotateOperator(id: UUID, secret: String, actor: String) async throws -> Operator
    /// Revokes the operator; its token is refused at once. `404` for an unknown operator.
    func revokeOperator(id: UUID, actor: String) async throws -> Operator
    /// The usable operator whose token is `secret` (its use recorded); nil when unknown, revoked or expired.
    func authenticateOperator(secret: String) async throws -> Operator?
    /// Audits a request refused because the operator's role lacks `permission` (`operator.denied`, naming
    /// the route), attributed through ``AuditContext/current``.
    func auditDenial(permission: OperatorPermission, method: String, route: String) async throws
    /// Audits an operator's action on a tenant's object that no store write audits itself (a dispute
    /// answered on the merchant's behalf), attributed through ``AuditContext/current``.
    func auditAction(tenant: UUID?, action: String, target: String, details: [String: String]) async throws
}
