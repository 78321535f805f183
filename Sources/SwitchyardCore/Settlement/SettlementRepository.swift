import Foundation

/// A refund or a capture whose outcome is still open (`pending` or `unknown`), claimed by the janitor.
public struct OpenOperation: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case refund
        case capture
    }

    public var kind: Kind
    public var tenant: UUID
    public var paymentId: String
    /// The refund's id, or the capture operation's.
    public var id: String
    /// Janitor looks so far.
    public var syncs: Int
    /// When the operation was created (its schedule and horizon count from there).
    public var since: Date

    public init(kind: Kind, tenant: UUID, paymentId: String, id: String, syncs: Int, since: Date) {
        self.kind = kind
        self.tenant = tenant
        self.paymentId = paymentId
        self.id = id
        self.syncs = syncs
        self.since = since
    }
}

/// The janitor's claims on payments waiting for a capture and on open refunds and captures. Every
/// claim skips rows another replica holds and leases what it returns, so replicas never look twice.
public protocol SettlementRepository: Sendable {
    /// System scope: claims up to `limit` `authorized` payments for which `hold` says a sync is due at
    /// `now` (counted from the payment's creation), and marks them synced at `now`.
    func claimHeldAuthorizations(now: Date, hold: AuthorizationHold, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    /// System scope: claims up to `limit` refunds and captures still `pending` or `unknown` whose next
    /// look is due (a first look `firstDelay` after creation), not yet given up, and leases them until
    /// `leaseUntil`.
    func claimOpenOperations(now: Date, firstDelay: TimeInterval, leaseUntil: Date, limit: Int) async throws
        -> [OpenOperation]
    /// Records a look at an open operation: `syncs` so far and the next look at `nextSyncAt` (nil: no more
    /// looks); a `reviewReason` puts it in the review list.
    func scheduleOpenOperation(_ operation: OpenOperation, syncs: Int, nextSyncAt: Date?, reviewReason: String?)
        async throws
}
