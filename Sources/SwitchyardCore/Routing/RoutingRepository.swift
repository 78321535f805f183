import Foundation

/// Storage of tenants' routing as one versioned whole, with every earlier version kept. Every write is
/// audited with its actor.
public protocol RoutingRepository: Sendable {
    /// A tenant's routing rules with the version they were written as (0 before any write).
    func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration
    /// Replaces a tenant's rules as a whole and records them as a new version; refused with
    /// `routing_version_conflict` when `expectedVersion` is given and is not the current one.
    func replaceRoutingRules(tenant: UUID, rules: [RoutingRule], actor: String, expectedVersion: Int?)
        async throws -> RoutingConfiguration
    /// The rows of `page` (see ``PageRequest/page(_:)``) of a tenant's routing versions; the version number
    /// is the id cursors name.
    func routingHistory(tenant: UUID, page: PageRequest) async throws -> [RoutingVersion]
}
