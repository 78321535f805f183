import Foundation

/// What the operator's review and provider-health views read across tenants: nothing secret, nothing
/// decrypted.
public protocol ReviewRepository: Sendable {
    /// Every tenant's accounts, without their credentials.
    func accountSummaries() async throws -> [AccountSummary]
    /// Payments still unknown at the janitor's horizon, of one tenant or all.
    func paymentsForReview(tenant: UUID?, limit: Int) async throws -> [Payment]
    /// Verified notifications whose report the payment's state rejected, of one tenant or all.
    func notificationsForReview(tenant: UUID?, limit: Int) async throws -> [RejectedNotification]
    /// Refunds and captures the janitor could not resolve, of one tenant or all.
    func operationsForReview(tenant: UUID?, limit: Int) async throws -> [OperationForReview]
    /// Takes an item out of the review list, with `note` kept beside it: a rejected notification is marked
    /// resolved; a payment, refund or capture still undecided is handed back to the janitor, which asks its
    /// provider again (and lists it again if that gives no answer either). Returns the item's tenant; nil when
    /// no such item is in the list.
    func resolveReview(_ kind: ReviewItemKind, id: String, note: String, at: Date) async throws -> UUID?
}

/// What the operator's health view shows of an account: nothing secret, nothing decrypted.
public struct AccountSummary: Sendable, Equatable {
    public var id: UUID
    public var tenantId: UUID
    public var name: String
    public var pluginId: String
    public var enabled: Bool

    public init(id: UUID, tenantId: UUID, name: String, pluginId: String, enabled: Bool) {
        self.id = id
        self.tenantId = tenantId
        self.name = name
        self.pluginId = pluginId
        self.enabled = enabled
    }
}

/// A verified notification that was not applied because the payment's state rejected its report.
public struct RejectedNotification: Sendable, Equatable {
    public var id: Int64
    public var tenantId: UUID
    public var accountId: UUID
    public var paymentId: String?
    public var code: String
    public var message: String?
    public var receivedAt: Date

    public init(
        id: Int64, tenantId: UUID, accountId: UUID, paymentId: String?, code: String, message: String?,
        receivedAt: Date
    ) {
        self.id = id
        self.tenantId = tenantId
        self.accountId = accountId
        self.paymentId = paymentId
        self.code = code
        self.message = message
        self.receivedAt = receivedAt
    }
}

/// A refund or capture still open that a person should look at.
public struct OperationForReview: Sendable, Equatable {
    public var kind: OpenOperation.Kind
    public var id: String
    public var tenantId: UUID
    public var paymentId: String
    public var amount: Int64?
    public var status: String
    public var reason: String
    public var syncs: Int
    public var createdAt: Date

    public init(
        kind: OpenOperation.Kind, id: String, tenantId: UUID, paymentId: String, amount: Int64?, status: String,
        reason: String, syncs: Int, createdAt: Date
    ) {
        self.kind = kind
        self.id = id
        self.tenantId = tenantId
        self.paymentId = paymentId
        self.amount = amount
        self.status = status
        self.reason = reason
        self.syncs = syncs
        self.createdAt = createdAt
    }
}

/// The kinds of item the review list holds.
public enum ReviewItemKind: String, Sendable, CaseIterable {
    case payment
    case notification
    case refund
    case capture
}
