import Foundation
import ProviderKit

/// Which logged payments a replay covers: decided in `from` ..< `to` (either open), at most the newest
/// `last` of them.
public struct ReplayWindow: Sendable, Equatable {
    public var from: Date?
    public var to: Date?
    public var last: Int?

    public init(from: Date? = nil, to: Date? = nil, last: Int? = nil) {
        self.from = from
        self.to = to
        self.last = last
    }
}

/// Reads the first-attempt decisions a replay scores.
public protocol RoutingReplayRepository: Sendable {
    /// A tenant's logged first-attempt decisions with a propensity, decided in `window`'s range, newest
    /// first, at most `limit`, read from one consistent snapshot.
    func loggedDecisions(tenant: UUID, window: ReplayWindow, limit: Int) async throws -> [LoggedDecision]
}

/// Replays a draft routing over a tenant's logged traffic, next to its live routing: validates the draft,
/// bounds the window by `routing_replay.max_payments`, and runs at most `routing_replay.max_concurrent`
/// replays per tenant at once. Reads only (no payment lock is taken); the estimate itself is
/// ``RoutingReplay``.
public struct RoutingReplayService: Sendable {
    let decisions: any RoutingReplayRepository
    /// The live routing and the accounts' descriptors (no secret is opened).
    let configuration: any ConfigurationRepository
    let manifest: @Sendable (String) async -> PluginManifest?
    let policy: PolicyCenter
    let gate: ReplayGate

    public init(
        decisions: any RoutingReplayRepository, configuration: any ConfigurationRepository,
        manifest: @escaping @Sendable (String) async -> PluginManifest?, policy: PolicyCenter
    ) {
        self.decisions = decisions
        self.configuration = configuration
        self.manifest = manifest
        self.policy = policy
        self.gate = ReplayGate()
    }

    /// Replays `draft` and the live routing over `window`.
    /// - Throws: ``RoutingAdminService/Rejection`` when the draft has errors; `invalid_parameter` for a
    ///   window whose `to` is not after `from` or whose `last` is below 1; `replay_window_too_large` when
    ///   it holds more than `max_payments`; `too_many_concurrent_requests` when the tenant already runs
    ///   `max_concurrent` replays.
    public func replay(tenant: UUID, draft rules: [RoutingRule], window: ReplayWindow) async throws
        -> RoutingReplay.Report
    {
        let platform = policy.platform
        let bounds = platform.routingReplay
        try Self.check(window, maxPayments: bounds.maxPayments)
        guard await gate.enter(tenant, limit: bounds.maxConcurrent) else {
            throw CoreError(
                .tooManyConcurrentRequests,
                "at most \(bounds.maxConcurrent) routing replays of this tenant may run at once; retry shortly")
        }
        do {
            let report = try await run(tenant: tenant, draft: rules, window: window, platform: platform)
            await gate.leave(tenant)
            return report
        } catch {
            await gate.leave(tenant)
            throw error
        }
    }

    private func run(tenant: UUID, draft rules: [RoutingRule], window: ReplayWindow, platform: PlatformPolicy)
        async throws -> RoutingReplay.Report
    {
        let bounds = platform.routingReplay
        var accounts: [UUID: RoutingCandidate] = [:]
        for account in try await configuration.accountDescriptors(tenant: tenant) {
            accounts[account.id] = RoutingCandidate(account: account, manifest: await manifest(account.pluginId))
        }
        let errors = RoutingValidator.validate(
            rules, accounts: accounts, maxRateLossLimit: platform.adaptiveRouting.maxRateLossLimit
        ).filter { $0.severity == .error }
        if !errors.isEmpty { throw RoutingAdminService.Rejection(issues: errors) }
        let live = try await configuration.routingConfiguration(tenant: tenant)
        let limit = window.last ?? bounds.maxPayments
        let logged = try await decisions.loggedDecisions(tenant: tenant, window: window, limit: limit + 1)
        if window.last == nil, window.from != nil || window.to != nil, logged.count > bounds.maxPayments {
            throw CoreError(
                .replayWindowTooLarge,
                "the window holds more than \(bounds.maxPayments) payments (routing_replay.max_payments); "
                    + "narrow from/to or set last",
                param: window.from == nil ? "to" : "from")
        }
        let adaptive = try await configuration.tenantPolicy(tenant: tenant).applied(to: platform).adaptiveRouting
        let replay = RoutingReplay(
            tenant: tenant,
            estimator: OffPolicyEstimator(
                z: platform.adaptiveRouting.confidenceZ, minEffectiveSamples: Double(bounds.minEffectiveSamples)))
        return replay.run(
            Array(logged.prefix(limit)),
            draft: RoutingReplay.Policy(rules: rules, accounts: accounts, adaptive: adaptive),
            live: RoutingReplay.Policy(rules: live.rules, accounts: accounts, adaptive: adaptive))
    }

    /// Refuses a window that is empty by construction or asks for more than `maxPayments`.
    static func check(_ window: ReplayWindow, maxPayments: Int) throws {
        if let last = window.last {
            guard last >= 1 else { throw CoreError(.invalidParameter, "last must be at least 1", param: "last") }
            guard last <= maxPayments else {
                throw CoreError(
                    .replayWindowTooLarge, "last must be at most \(maxPayments) (routing_replay.max_payments)",
                    param: "last")
            }
        }
        if let from = window.from, let to = window.to, to <= from {
            throw CoreError(.invalidParameter, "to must be after from", param: "to")
        }
    }
}

/// Counts the replays each tenant runs at once on this replica.
actor ReplayGate {
    private var running: [UUID: Int] = [:]

    /// Takes a place for `tenant` when fewer than `limit` are taken.
    func enter(_ tenant: UUID, limit: Int) -> Bool {
        guard running[tenant, default: 0] < limit else { return false }
        running[tenant, default: 0] += 1
        return true
    }

    func leave(_ tenant: UUID) {
        running[tenant, default: 1] -= 1
        if running[tenant] == 0 { running[tenant] = nil }
    }
}
