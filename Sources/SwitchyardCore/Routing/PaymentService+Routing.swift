import Foundation

/// How a payment is routed: the tenant's rules, accounts and breakers, the statistics an adaptive rule ranks
/// by, and the payment options that follow from them.
extension PaymentService {
    /// Routes a payment against the tenant's current rules, accounts and breakers; also returns the
    /// decision's candidate accounts with their secrets (only those are decrypted), so the caller need not
    /// read them again.
    ///
    /// With `livemode`, only the accounts of that mode are candidates; when that leaves the payment no route
    /// although an account of the other mode would take it, the failure is `422 no_account_for_mode`. During
    /// a guarded rollout, the routing key's side decides whether the draft's rules or the live ones apply.
    func routing(
        tenant: UUID, payment: PaymentDescription, routingKey: String, livemode: Bool? = nil, resolve: Bool = true
    ) async throws -> (explanation: RoutingExplanation, accounts: [UUID: ProviderAccount]) {
        let (routing, all) = try await routingState(tenant: tenant)
        let (rules, version, arm) = PaymentRouter.ruleSet(routing, routingKey: routingKey)
        let adaptive = try await adaptiveInput(tenant: tenant, payment: payment, rules: rules)
        let explain = { (candidates: [UUID: RoutingCandidate]) in
            PaymentRouter.explain(
                payment, routingKey: routingKey, rules: rules, accounts: candidates, version: version,
                adaptive: adaptive)
        }
        var explanation = explain(Livemode.candidates(all, livemode: livemode))
        if let livemode, (explanation.failure?.code ?? .noRoute) == .noRoute, explanation.decision == nil,
            explain(all).decision != nil
        {
            throw Livemode.noAccount(livemode: livemode)
        }
        explanation.decision?.arm = arm
        explanation.decision?.rolloutId = arm == nil ? nil : routing.rollout?.id
        var accounts: [UUID: ProviderAccount] = [:]
        for id in resolve ? explanation.decision?.candidates ?? [] : [] {
            accounts[id] = try await configuration.account(tenant: tenant, id: id)
        }
        return (explanation, accounts)
    }

    /// What routing decides on: the tenant's rules, and its accounts with their plugins' manifests and the
    /// state of their breakers now.
    func routingState(tenant: UUID) async throws -> (RoutingConfiguration, [UUID: RoutingCandidate]) {
        let routing = try await configuration.routingConfiguration(tenant: tenant)
        var candidates: [UUID: RoutingCandidate] = [:]
        for account in try await configuration.accountDescriptors(tenant: tenant) {
            candidates[account.id] = RoutingCandidate(
                account: account, manifest: await gateway.manifest(pluginId: account.pluginId),
                unhealthy: await health.unavailability(of: account.id))
        }
        return (routing, candidates)
    }

    /// What an adaptive rule ranks by: read only when the rule matching the payment is adaptive. A
    /// failed statistics read does not fail the payment: the rule's order stands ("statistics
    /// unavailable") and the failure is logged.
    func adaptiveInput(tenant: UUID, payment: PaymentDescription, rules: [RoutingRule]) async throws
        -> PaymentRouter.AdaptiveInput
    {
        guard PaymentRouter.matching(payment, rules: rules).rule?.strategy == .adaptive else {
            return PaymentRouter.AdaptiveInput()
        }
        let policy = try await effectivePolicy(tenant: tenant).adaptiveRouting
        guard let routingStats else { return PaymentRouter.AdaptiveInput(stats: [], policy: policy) }
        do {
            let stats = try await routingStats.authorizationStats(tenant: tenant, window: policy.window(at: clock()))
            return PaymentRouter.AdaptiveInput(stats: stats, policy: policy)
        } catch {
            logger.warning(
                "routing statistics unavailable: rule order",
                metadata: ["tenant.id": "\(tenant)", "error.type": "\(type(of: error))"])
            return PaymentRouter.AdaptiveInput(stats: nil, policy: policy)
        }
    }

    /// The methods a payment of `query`'s country, currency and amount can use now under the tenant's rules,
    /// accounts and breakers, and why its other methods cannot; decided as creating the payment would
    /// route it, with only the accounts of the key's mode (`livemode`; nil: every account). Nothing is stored
    /// and no provider is called.
    public func paymentOptions(tenant: UUID, _ query: PaymentOptionsQuery, livemode: Bool? = nil) async throws
        -> PaymentOptions
    {
        let (routing, all) = try await routingState(tenant: tenant)
        let candidates = Livemode.candidates(all, livemode: livemode)
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
