import Foundation
import ProviderKit

/// Which of a tenant's payment methods a payment of a given country, currency and amount can use now,
/// and why the others cannot. Decided per method by `PaymentRouter.explain` itself, so a method is offered
/// exactly when creating a payment with it would route to an account.
public struct PaymentOptions: Sendable, Equatable {
    /// A method the payment can use, with the account routing tries first and what it takes.
    public struct Offer: Sendable, Equatable {
        public var method: String
        /// The account routing tries first (for a weighted rule, the first of a draw without a reference).
        public var accountId: UUID
        public var accountName: String
        /// The account's plugin (manifest `id`), provider name and environment; never its credentials.
        public var pluginId: String
        public var provider: String
        public var environment: String
        /// How many more accounts would be tried after it.
        public var fallbacks: Int
        /// What the first account's plugin declares of the method.
        public var support: MethodSupport
    }

    /// A method the tenant has configured that the payment cannot use, and why.
    public struct Exclusion: Sendable, Equatable {
        public var method: String
        public var reason: PaymentEligibility.Reason
        public var message: String
    }

    public var offered: [Offer]
    public var excluded: [Exclusion]
    /// The version of the routing configuration that decided.
    public var version: Int?

    /// Evaluates every method of ``configuredMethods(rules:accounts:)`` for a payment of `amount` in
    /// `currency` from `country`. A method that routes but can only be paid with a stored payment method
    /// (``MethodSupport/requiresStoredMethod``) is offered only when it is one of `storedMethods`.
    /// - Parameters:
    ///   - adaptive: what adaptive rules rank by, per method (absent: no statistics).
    ///   - customerId: the customer the payment would be for, if known.
    ///   - storedMethods: the methods the customer has a usable stored payment method for.
    public static func evaluate(
        amount: Int64, currency: String, country: String, rules: [RoutingRule], accounts: [UUID: RoutingCandidate],
        version: Int? = nil, adaptive: [String: PaymentRouter.AdaptiveInput] = [:], customerId: String? = nil,
        storedMethods: Set<String> = []
    ) -> PaymentOptions {
        var options = PaymentOptions(offered: [], excluded: [], version: version)
        for method in configuredMethods(rules: rules, accounts: accounts) {
            let payment = PaymentDescription(amount: amount, currency: currency, country: country, method: method)
            let explanation = PaymentRouter.explain(
                payment, rules: rules, accounts: accounts, version: version,
                adaptive: adaptive[method] ?? PaymentRouter.AdaptiveInput())
            if let candidates = explanation.decision?.candidates, let first = candidates.first,
                let candidate = accounts[first], let manifest = candidate.manifest,
                let support = manifest.support(for: method)
            {
                if support.requiresStoredMethod && !storedMethods.contains(method) {
                    let why = storedMethodMissing(method, customerId: customerId)
                    options.excluded.append(Exclusion(method: method, reason: why.reason, message: why.message))
                    continue
                }
                options.offered.append(
                    Offer(
                        method: method, accountId: first, accountName: candidate.account.name,
                        pluginId: candidate.account.pluginId, provider: manifest.provider,
                        environment: candidate.account.environment, fallbacks: candidates.count - 1,
                        support: support))
            } else {
                let why = exclusion(payment, explanation: explanation, rules: rules, accounts: accounts)
                options.excluded.append(Exclusion(method: method, reason: why.reason, message: why.message))
            }
        }
        return options
    }

    /// The methods a tenant has configured: those its rules name and those its accounts' plugins offer,
    /// sorted.
    public static func configuredMethods(rules: [RoutingRule], accounts: [UUID: RoutingCandidate]) -> [String] {
        var methods = Set(rules.flatMap(\.match.methods))
        for candidate in accounts.values { methods.formUnion(candidate.manifest?.methods ?? []) }
        return methods.sorted()
    }

    /// Why `method`, which is only paid with a stored payment method, is not offered to `customerId`.
    static func storedMethodMissing(_ method: String, customerId: String?) -> PaymentEligibility.Ineligibility {
        let message =
            if let customerId {
                "\(method) is paid only with a stored payment method and customer '\(customerId)' has none usable: "
                    + "vault one with a vaulting session first"
            } else {
                "\(method) is paid only with a stored payment method: give the customer who has one"
            }
        return PaymentEligibility.Ineligibility(.storedMethodRequired, message)
    }

    /// Why routing found no account for `payment`: no rule matched, every account that could take it has
    /// its breaker open, or the reason of the rule's account closest to taking it.
    static func exclusion(
        _ payment: PaymentDescription, explanation: RoutingExplanation, rules: [RoutingRule],
        accounts: [UUID: RoutingCandidate]
    ) -> PaymentEligibility.Ineligibility {
        guard let ruleId = explanation.rules.first(where: \.matched)?.ruleId,
            let rule = rules.first(where: { $0.id == ruleId })
        else {
            return PaymentEligibility.Ineligibility(
                .noRule,
                "no routing rule for \(payment.method) in \(payment.currency) from \(payment.country) for "
                    + Currency.formatted(payment.amount, payment.currency))
        }
        if explanation.failure?.code == .providersUnavailable {
            return PaymentEligibility.Ineligibility(
                .breakerOpen,
                "breaker open on every account of rule '\(rule.name)' that could take \(payment.method)")
        }
        let reasons = rule.accounts.map { id in
            accounts[id].map { PaymentEligibility.ineligibility(of: $0, for: payment) }
                ?? PaymentEligibility.Ineligibility(.accountMissing, "account does not exist")
        }
        return reasons.compactMap { $0 }.min { $0.reason.closeness < $1.reason.closeness }
            ?? PaymentEligibility.Ineligibility(
                .accountMissing, "routing rule '\(rule.name)' has no account that can take \(payment.method)")
    }
}
