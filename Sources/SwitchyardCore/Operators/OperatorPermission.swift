/// One thing an operator may do through the admin API or the console. The strings are stable: the
/// console and scripts name them, and a refusal (`missing_permission`) quotes them.
public enum OperatorPermission: String, Sendable, Codable, CaseIterable, Hashable {
    /// Read every admin resource except secrets.
    case platformRead = "platform.read"
    /// Capture, refund, cancel or sync a payment.
    case paymentsAct = "payments.act"
    /// Resolve a review-queue item.
    case reviewResolve = "review.resolve"
    /// Replay webhook deliveries, send a test event.
    case webhooksReplay = "webhooks.replay"
    /// Create or disable webhook endpoints, rotate their secret.
    case webhooksManage = "webhooks.manage"
    /// Create or edit tenants, move a tenant's API-version pin.
    case tenantsManage = "tenants.manage"
    /// Create, rotate or revoke API keys.
    case keysManage = "keys.manage"
    /// Provider accounts and their credentials.
    case accountsManage = "accounts.manage"
    /// Routing changes, simulations and replays that write, rollouts.
    case routingManage = "routing.manage"
    /// Tenant policy edits, policy reload.
    case policyManage = "policy.manage"
    /// Plugin reload or install.
    case pluginsManage = "plugins.manage"
    /// Operators: add, list, rotate, revoke.
    case operatorsManage = "operators.manage"
    /// Accept a dispute, attach evidence.
    case disputesAct = "disputes.act"
}
