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
            accounts: candidates, version: routing.version, adaptive: adaptive)
    }
}
