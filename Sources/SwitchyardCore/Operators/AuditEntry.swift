import Foundation

/// An audit entry: who changed what, when.
public struct AuditEntry: Codable, Sendable, Equatable {
    public var id: Int64
    public var tenantId: UUID?
    public var actor: String
    public var action: String
    public var target: String
    public var details: [String: String]
    public var at: Date
    /// The operator who acted (nil for the bootstrap token and for merchants' API keys).
    public var operatorId: UUID?
    /// The operator's name and role when it acted (`bootstrap` / `admin` for the bootstrap token).
    public var operatorName: String?
    public var operatorRole: String?
    /// The request's `X-Request-Id` and source address.
    public var requestId: String?
    public var sourceAddress: String?

    public init(
        id: Int64, tenantId: UUID?, actor: String, action: String, target: String, details: [String: String],
        at: Date
    ) {
        self.id = id
        self.tenantId = tenantId
        self.actor = actor
        self.action = action
        self.target = target
        self.details = details
        self.at = at
    }
}
