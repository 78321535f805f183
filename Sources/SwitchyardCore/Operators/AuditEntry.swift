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
