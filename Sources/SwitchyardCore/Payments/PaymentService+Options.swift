import Foundation

extension PaymentService {
    /// The methods a payment of `query`'s country, currency and amount can use now under the tenant's rules,
    /// accounts and breakers, and why its other methods cannot; decided as creating the payment would
    /// route it, with only the accounts of the key's mode (`livemode`; nil: every account). Nothing is stored
    /// and no provider is called.
    public func paymentOptions(tenant: UUID, _ query: PaymentOptionsQuery, livemode: Bool? = nil) async throws
        -> PaymentOptions
    {
        let (routing, all) = try await routingState(tenant: tenant)
        let candidates = Self.candidates(all, livemode: livemode)
        var adaptive: [String: PaymentRouter.AdaptiveInput] = [:]
        for method in PaymentOptions.configuredMethods(rules: routing.rules, accounts: candidates) {
            let payment = PaymentDescription(
                amount: query.amount, currency: query.currency, country: query.country, method: method)
            adaptive[method] = try await adaptiveInput(tenant: tenant, payment: payment, rules: routing.rules)
        }
        return PaymentOptions.evaluate(
            amount: query.amount, currency: query.currency, country: query.country, rules: routing.rules,
            accounts: candidates, version: routing.version, adaptive: adaptive, customerId: query.customerId,
            storedMethods: try await storedMethods(tenant: tenant, customerId: query.customerId, accounts: candidates))
    }

    /// The methods `customerId` has a usable stored payment method for, at one of `accounts` (those of the
    /// key's mode): read only when some account's plugin has a method paid with stored ones alone.
    func storedMethods(tenant: UUID, customerId: String?, accounts: [UUID: RoutingCandidate]) async throws
        -> Set<String>
    {
        let needed = accounts.values.contains { candidate in
            candidate.manifest?.methodSupport?.contains(where: \.requiresStoredMethod) ?? false
        }
        guard needed, let customerId else { return [] }
        let now = clock()
        return Set(
            try await credentials.credentials(tenant: tenant, customerId: customerId)
                .filter { accounts[$0.accountId] != nil && $0.isActive(at: now) }
                .map(\.paymentMethodName))
    }
}
