import Foundation
import SwitchyardCore

/// Tenants' routing in memory, versioned as the PostgreSQL store versions it, for fast tests of
/// ``RoutingAdminService``.
public actor InMemoryRoutingRepository: RoutingRepository {
    private var versions: [UUID: [RoutingVersion]] = [:]
    let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    public func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration {
        let last = versions[tenant]?.last
        return RoutingConfiguration(version: last?.version ?? 0, rules: last?.rules ?? [])
    }

    public func replaceRoutingRules(tenant: UUID, rules: [RoutingRule], actor: String, expectedVersion: Int?)
        async throws -> RoutingConfiguration
    {
        let current = versions[tenant]?.last?.version ?? 0
        if let expectedVersion, expectedVersion != current {
            throw CoreError(
                .routingVersionConflict,
                "the routing is at version \(current), not \(expectedVersion); read it again and retry")
        }
        let version = RoutingVersion(version: current + 1, actor: actor, createdAt: now(), rules: rules)
        versions[tenant, default: []].append(version)
        return RoutingConfiguration(version: version.version, rules: rules)
    }

    public func routingHistory(tenant: UUID, page: PageRequest) async throws -> [RoutingVersion] {
        try page.select(versions[tenant] ?? [], id: { String($0.version) }, created: \.createdAt)
    }
}
