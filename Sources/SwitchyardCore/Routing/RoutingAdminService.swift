import Foundation
import ProviderKit

/// The administration of a tenant's routing: read, replace (validated against the tenant's accounts and
/// their plugins' manifests, versioned, audited) and history.
public struct RoutingAdminService: Sendable {
    let routing: any RoutingRepository
    let accounts: any AccountRepository
    /// The manifest of a loaded plugin, by id.
    let manifest: @Sendable (String) async -> PluginManifest?
    /// The platform policy whose limits rules are validated against.
    let policy: PolicyCenter
    /// Where guarded rollouts are kept; nil: rollouts are not offered (`not_supported`).
    let rollouts: (any RolloutRepository)?

    /// A routing refused by validation: every error found, in rule order.
    public struct Rejection: Error, Sendable, Equatable {
        public var issues: [RoutingIssue]

        /// The first error's message, with how many more there are.
        public var message: String {
            guard let first = issues.first else { return "invalid routing" }
            return issues.count == 1 ? first.message : "\(first.message) (and \(issues.count - 1) more)"
        }
    }

    /// A routing as stored, with the warnings validation found (never errors).
    public struct Replaced: Sendable, Equatable {
        public var configuration: RoutingConfiguration
        public var warnings: [RoutingIssue]
    }

    public init(
        routing: any RoutingRepository, accounts: any AccountRepository,
        manifest: @escaping @Sendable (String) async -> PluginManifest?, policy: PolicyCenter? = nil,
        rollouts: (any RolloutRepository)? = nil
    ) {
        self.rollouts = rollouts
        self.policy = policy ?? PolicyCenter(PlatformPolicy())
        self.routing = routing
        self.accounts = accounts
        self.manifest = manifest
    }

    /// A tenant's current routing (version 0 and no rules before the first write).
    public func configuration(tenant: UUID) async throws -> RoutingConfiguration {
        try await routing.routingConfiguration(tenant: tenant)
    }

    /// Up to `limit` earlier routing configurations of a tenant, newest first.
    public func history(tenant: UUID, limit: Int = 100) async throws -> [RoutingVersion] {
        try await history(tenant: tenant, page: PageRequest(limit: limit)).items
    }

    /// A page of a tenant's routing versions, newest first (cursors name version numbers).
    public func history(tenant: UUID, page: PageRequest) async throws -> Page<RoutingVersion> {
        page.page(try await routing.routingHistory(tenant: tenant, page: page))
    }

    /// Replaces a tenant's routing after validating it; throws ``Rejection`` when validation finds an
    /// error (nothing is stored), `routing_version_conflict` when `expectedVersion` is stale.
    public func replace(tenant: UUID, rules: [RoutingRule], expectedVersion: Int?, actor: String) async throws
        -> Replaced
    {
        let warnings = try await validate(tenant: tenant, rules: rules)
        let saved = try await routing.replaceRoutingRules(
            tenant: tenant, rules: rules, actor: actor, expectedVersion: expectedVersion)
        return Replaced(configuration: saved, warnings: warnings)
    }

    /// Validates rules against the tenant's accounts and their plugins' manifests: throws ``Rejection``
    /// with the errors, returns the warnings.
    func validate(tenant: UUID, rules: [RoutingRule]) async throws -> [RoutingIssue] {
        var candidates: [UUID: RoutingCandidate] = [:]
        for account in try await accounts.accounts(tenant: tenant) {
            candidates[account.id] = RoutingCandidate(account: account, manifest: await manifest(account.pluginId))
        }
        let issues = RoutingValidator.validate(
            rules, accounts: candidates, maxRateLossLimit: policy.platform.adaptiveRouting.maxRateLossLimit)
        let errors = issues.filter { $0.severity == .error }
        if !errors.isEmpty { throw Rejection(issues: errors) }
        return issues.filter { $0.severity == .warning }
    }
}
