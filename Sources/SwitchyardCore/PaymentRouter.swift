import Foundation
import ProviderKit

/// What routing knows about a candidate account: the account and its plugin's manifest (if loaded).
public struct RoutingCandidate: Sendable {
    public var account: ProviderAccount
    public var manifest: PluginManifest?

    public init(account: ProviderAccount, manifest: PluginManifest?) {
        self.account = account
        self.manifest = manifest
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

    public init(ruleId: UUID?, ruleName: String?, candidates: [UUID], skipped: [Skip]) {
        self.ruleId = ruleId
        self.ruleName = ruleName
        self.candidates = candidates
        self.skipped = skipped
    }
}

/// Pure routing: the first matching rule's accounts, filtered by manifest and enablement.
public enum PaymentRouter {
    /// Routes a payment.
    /// - Parameters:
    ///   - payment: what is being paid.
    ///   - rules: the tenant's rules, in order.
    ///   - accounts: the tenant's accounts with their plugins' manifests, by id.
    /// - Throws: ``CoreError`` `no_route` (422) when no rule matches or every account of the matching
    ///   rule is unusable for this payment.
    public static func route(
        _ payment: PaymentDescription, rules: [RoutingRule], accounts: [UUID: RoutingCandidate]
    ) throws -> RoutingDecision {
        guard let rule = rules.first(where: { $0.match.matches(payment) }) else {
            throw CoreError.unprocessable(
                "no_route", "no routing rule matches \(payment.method) \(payment.currency) \(payment.country)")
        }
        var candidates: [UUID] = []
        var skipped: [RoutingDecision.Skip] = []
        for accountId in rule.accounts {
            guard let candidate = accounts[accountId] else {
                skipped.append(.init(accountId: accountId, reason: "account does not exist"))
                continue
            }
            if let reason = unsuitability(of: candidate, for: payment) {
                skipped.append(.init(accountId: accountId, reason: reason))
            } else {
                candidates.append(accountId)
            }
        }
        guard !candidates.isEmpty else {
            throw CoreError.unprocessable(
                "no_route", "routing rule '\(rule.name)' matched but none of its accounts can take this payment")
        }
        return RoutingDecision(ruleId: rule.id, ruleName: rule.name, candidates: candidates, skipped: skipped)
    }

    /// Why a candidate cannot take a payment, or `nil` if it can.
    public static func unsuitability(of candidate: RoutingCandidate, for payment: PaymentDescription) -> String? {
        guard candidate.account.enabled else { return "account disabled" }
        guard let manifest = candidate.manifest else {
            return "plugin \(candidate.account.pluginId) is not loaded"
        }
        guard manifest.flows.contains(.authorize) else { return "plugin cannot authorize" }
        guard manifest.methods.contains(payment.method) else {
            return "plugin does not support method \(payment.method)"
        }
        if !manifest.currencies.isEmpty && !manifest.currencies.contains(payment.currency) {
            return "plugin does not support currency \(payment.currency)"
        }
        if !manifest.countries.isEmpty && !manifest.countries.contains(payment.country) {
            return "plugin does not support country \(payment.country)"
        }
        return nil
    }
}
