/// A built-in operator role: the set of ``OperatorPermission``s it grants. The table is written out
/// here and in docs/operations.md; every admin route names the one permission it needs.
public enum OperatorRole: String, Sendable, Codable, CaseIterable, Hashable {
    /// Reads everything but secrets.
    case viewer
    /// A viewer who may also act on payments, resolve reviews, replay webhooks and answer disputes.
    case support
    /// Every permission.
    case admin

    /// The permissions this role grants.
    public var permissions: Set<OperatorPermission> {
        switch self {
        case .viewer: [.platformRead]
        case .support:
            OperatorRole.viewer.permissions.union([.paymentsAct, .reviewResolve, .webhooksReplay, .disputesAct])
        case .admin: Set(OperatorPermission.allCases)
        }
    }

    /// Whether this role grants `permission`.
    public func grants(_ permission: OperatorPermission) -> Bool { permissions.contains(permission) }

    /// The permissions this role grants in the order of ``OperatorPermission/allCases``.
    public var orderedPermissions: [OperatorPermission] { OperatorPermission.allCases.filter(grants) }
}
