import Foundation

extension PaymentRouter {
    /// The rules a payment is routed by: the live ones, or, for the draft's share of a guarded rollout
    /// (a stable hash of the routing key, so a retry stays on its side), the draft's; with the version
    /// recorded in the decision and the arm (nil outside a rollout).
    public static func ruleSet(_ routing: RoutingConfiguration, routingKey: String)
        -> (rules: [RoutingRule], version: Int, arm: RolloutArm?)
    {
        guard let rollout = routing.rollout else { return (routing.rules, routing.version, nil) }
        switch rollout.arm(routingKey: routingKey) {
        case .draft: return (rollout.draftRules, rollout.draftVersion, .draft)
        case .control: return (routing.rules, routing.version, .control)
        }
    }
}
