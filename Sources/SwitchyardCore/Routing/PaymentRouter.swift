import Foundation
import ProviderKit

/// What routing knows about a candidate account: the account, its plugin's manifest (if loaded) and
/// its health.
public struct RoutingCandidate: Sendable {
    public var account: ProviderAccount
    public var manifest: PluginManifest?
    /// Why the account cannot take traffic right now (its circuit is open), or nil when it can.
    public var unhealthy: String?

    public init(account: ProviderAccount, manifest: PluginManifest?, unhealthy: String? = nil) {
        self.account = account
        self.manifest = manifest
        self.unhealthy = unhealthy
    }
}

/// The outcome of routing one payment: the accounts to try in order, and why others were skipped.
public struct RoutingDecision: Codable, Sendable, Equatable {
    /// One account routing passed over, and why.
    public struct Skip: Codable, Sendable, Equatable {
        public var accountId: UUID
        public var reason: String

        public init(accountId: UUID, reason: String) {
            self.accountId = accountId
            self.reason = reason
        }
    }

    /// The rule that matched, if any.
    public var ruleId: UUID?
    public var ruleName: String?
    /// Accounts to try, in order.
    public var candidates: [UUID]
    public var skipped: [Skip]
    /// The version of the tenant's routing configuration that decided.
    public var version: Int?
    /// Whether the first candidate was drawn by the rule's weights.
    public var weighted: Bool
    /// How the matched rule ordered its accounts (nil without a rule, e.g. a stored payment method).
    public var strategy: RoutingStrategy?
    /// Every account of the matched rule as ranked, with its estimate, fee and reason.
    public var ranking: [Rank]
    /// The probability with which the matched rule puts each account first (the first attempt's choice),
    /// summing to 1; empty without a rule. What replaying another routing over past traffic weighs by.
    public var propensities: [Propensity]
    /// The arm of the guarded rollout the payment went through (nil outside a rollout).
    public var arm: RolloutArm?
    /// The guarded rollout the payment went through (nil outside a rollout): its answers count for that
    /// rollout only, never for a later one.
    public var rolloutId: UUID?

    public init(
        ruleId: UUID?, ruleName: String?, candidates: [UUID], skipped: [Skip], version: Int? = nil,
        weighted: Bool = false, strategy: RoutingStrategy? = nil, ranking: [Rank] = [], propensities: [Propensity] = []
    ) {
        self.ruleId = ruleId
        self.ruleName = ruleName
        self.candidates = candidates
        self.skipped = skipped
        self.version = version
        self.weighted = weighted
        self.strategy = strategy
        self.ranking = ranking
        self.propensities = propensities
    }

    enum CodingKeys: String, CodingKey {
        case ruleId, ruleName, candidates, skipped, version, weighted, strategy, ranking, propensities, arm, rolloutId
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ruleId = try c.decodeIfPresent(UUID.self, forKey: .ruleId)
        ruleName = try c.decodeIfPresent(String.self, forKey: .ruleName)
        candidates = try c.decode([UUID].self, forKey: .candidates)
        skipped = try c.decode([Skip].self, forKey: .skipped)
        version = try c.decodeIfPresent(Int.self, forKey: .version)
        weighted = try c.decodeIfPresent(Bool.self, forKey: .weighted) ?? false
        strategy = try c.decodeIfPresent(RoutingStrategy.self, forKey: .strategy)
        ranking = try c.decodeIfPresent([Rank].self, forKey: .ranking) ?? []
        propensities = try c.decodeIfPresent([Propensity].self, forKey: .propensities) ?? []
        arm = try c.decodeIfPresent(RolloutArm.self, forKey: .arm)
        rolloutId = try c.decodeIfPresent(UUID.self, forKey: .rolloutId)
    }
}

/// Why routing chose what it chose, rule by rule: what `simulate` shows.
public struct RoutingExplanation: Sendable, Equatable {
    /// One rule examined, in order, until the first that matched.
    public struct RuleCheck: Sendable, Equatable {
        public var ruleId: UUID
        public var ruleName: String
        public var matched: Bool
        /// Why the rule did not match.
        public var reason: String?
    }

    /// The rules looked at.
    public var rules: [RuleCheck]
    /// The decision, when there is one.
    public var decision: RoutingDecision?
    /// Why there is no decision (`no_route` 422 or `providers_unavailable` 503).
    public var failure: CoreError?
    /// The matching rule's accounts that cannot take the payment, and why.
    public var skipped: [RoutingDecision.Skip] = []
    /// The tenant's accounts the matching rule does not name.
    public var otherAccounts: [RoutingDecision.Skip] = []
    /// Name and plugin of every account looked at, for people reading the explanation.
    public var labels: [UUID: Label] = [:]

    /// How an account is shown.
    public struct Label: Sendable, Equatable {
        public var name: String
        public var plugin: String
    }

    /// The decision, or the failure that explains its absence.
    public func decided() throws -> RoutingDecision {
        if let failure { throw failure }
        guard let decision else { throw CoreError(.noRoute, "no routing decision") }
        return decision
    }
}

/// Pure routing: the first matching rule's accounts, filtered by manifest, enablement and health, in
/// the rule's order or drawn by its weights.
public enum PaymentRouter {
    /// Routes a payment.
    /// - Parameters:
    ///   - payment: what is being paid.
    ///   - routingKey: what makes a weighted draw repeatable: the same key always gets the same order.
    ///   - rules: the tenant's rules, in order.
    ///   - accounts: the tenant's accounts with their plugins' manifests and health, by id.
    ///   - version: the routing configuration's version, recorded in the decision.
    /// - Throws: ``CoreError`` `no_route` (422) when no rule matches or no account of the matching rule
    ///   can take this payment; `providers_unavailable` (503) when the accounts that could are all unhealthy.
    public static func route(
        _ payment: PaymentDescription, routingKey: String = "", rules: [RoutingRule],
        accounts: [UUID: RoutingCandidate], version: Int? = nil
    ) throws -> RoutingDecision {
        try explain(payment, routingKey: routingKey, rules: rules, accounts: accounts, version: version).decided()
    }

    /// Explains how a payment would be routed, without throwing.
    /// - Parameter adaptive: the statistics and knobs rules with `strategy: "adaptive"` rank by.
    public static func explain(
        _ payment: PaymentDescription, routingKey: String = "", rules: [RoutingRule],
        accounts: [UUID: RoutingCandidate], version: Int? = nil, adaptive: AdaptiveInput = AdaptiveInput()
    ) -> RoutingExplanation {
        let labels = accounts.mapValues {
            RoutingExplanation.Label(name: $0.account.name, plugin: $0.account.pluginId)
        }
        let (checks, matched) = matching(payment, rules: rules)
        guard let rule = matched else {
            let failure = CoreError(
                .noRoute,
                "no routing rule matches \(payment.method) \(payment.currency) \(payment.country) \(payment.amount)")
            let others = accounts.keys.sorted { $0.uuidString < $1.uuidString }
                .map { RoutingDecision.Skip(accountId: $0, reason: "no routing rule matches the payment") }
            return RoutingExplanation(
                rules: checks, decision: nil, failure: failure, otherAccounts: others, labels: labels)
        }
        var suitable: [(id: UUID, weight: Int)] = []
        var skipped: [RoutingDecision.Skip] = []
        var unhealthy = 0
        for (index, accountId) in rule.accounts.enumerated() {
            guard let candidate = accounts[accountId] else {
                skipped.append(.init(accountId: accountId, reason: "account does not exist"))
                continue
            }
            if let reason = unsuitability(of: candidate, for: payment) {
                skipped.append(.init(accountId: accountId, reason: reason))
            } else if let reason = candidate.unhealthy {
                unhealthy += 1
                skipped.append(.init(accountId: accountId, reason: reason))
            } else {
                suitable.append((accountId, rule.weights.map { index < $0.count ? $0[index] : 0 } ?? 1))
            }
        }
        let others = accounts.keys.filter { !rule.accounts.contains($0) }.sorted { $0.uuidString < $1.uuidString }
            .map { RoutingDecision.Skip(accountId: $0, reason: "not an account of rule '\(rule.name)'") }
        guard !suitable.isEmpty else {
            let failure: CoreError =
                unhealthy > 0
                ? CoreError(
                    .providersUnavailable,
                    "every account of routing rule '\(rule.name)' that could take this payment is unavailable")
                : CoreError(
                    .noRoute, "routing rule '\(rule.name)' matched but none of its accounts can take this payment")
            return RoutingExplanation(
                rules: checks, decision: nil, failure: failure, skipped: skipped, otherAccounts: others,
                labels: labels)
        }
        let (ranking, propensities) = ranking(
            rule, suitable: suitable, payment: payment, routingKey: routingKey, accounts: accounts,
            adaptive: adaptive)
        let order = ranking.filter { $0.position != nil }.map(\.accountId)
        let breakers = skipped.compactMap { skip in
            accounts[skip.accountId].flatMap { candidate in
                candidate.unhealthy.map {
                    RoutingDecision.Rank(
                        accountId: skip.accountId, position: nil,
                        fee: candidate.account.fees[payment.currency]?.fee(for: payment.amount),
                        reason: "breaker open: \($0)")
                }
            }
        }
        let decision = RoutingDecision(
            ruleId: rule.id, ruleName: rule.name, candidates: order, skipped: skipped, version: version,
            weighted: rule.strategy == .weighted, strategy: rule.strategy, ranking: ranking + breakers,
            propensities: propensities)
        return RoutingExplanation(
            rules: checks, decision: decision, failure: nil, skipped: skipped, otherAccounts: others, labels: labels)
    }

    /// Why a candidate cannot take a payment, or `nil` if it can (``PaymentEligibility``, health aside).
    public static func unsuitability(of candidate: RoutingCandidate, for payment: PaymentDescription) -> String? {
        PaymentEligibility.ineligibility(of: candidate, for: payment)?.message
    }
}
