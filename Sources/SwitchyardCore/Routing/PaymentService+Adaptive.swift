import Foundation

extension PaymentService {
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
}
