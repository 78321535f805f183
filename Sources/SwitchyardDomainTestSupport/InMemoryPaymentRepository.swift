import Foundation
import ProviderKit
import SwitchyardCore
import Synchronization

/// Payments, their attempts, refunds and operations, and `Idempotency-Key`s, kept in memory with the
/// contracts of the PostgreSQL store: every method is one transaction (all or nothing, serialized
/// against every other), reads are scoped by tenant as row-level security scopes them, and upserts keep
/// the store's rules (a final refund stays final, a known operation outcome is never replaced by
/// `unknown`, a provider id once known is kept, the refunded amount is the sum of succeeded refunds).
///
/// It also implements ``SettlementRepository``, whose claims run over the same rows.
public final class InMemoryPaymentRepository: Sendable {
    /// A status change the store would announce as a webhook event.
    public struct StatusChange: Sendable, Equatable {
        public var subject: String
        public var id: String
        public var from: String?
        public var to: String
    }

    /// A payment with the store's own bookkeeping columns.
    struct PaymentRow {
        var payment: Payment
        /// The unknown payment's next sync, or a claim's lease on a `processing` payment.
        var nextSyncAt: Date?
        var sessionSweptAt: Date?
        var holdSyncedAt: Date?
        /// Overdue-notification inquiries made so far, and when the next is due.
        var overdueInquiries = 0
        var overdueNextAt: Date?

        /// The payment as read back: its resolution carries the stored next sync.
        var stored: Payment {
            var p = payment
            if p.resolution != nil { p.resolution?.nextSyncAt = nextSyncAt }
            return p
        }
    }

    /// A refund or operation with the janitor's bookkeeping.
    struct OpenRow<Value> {
        var value: Value
        var syncs = 0
        var nextSyncAt: Date?
        var reviewReason: String?
    }

    struct KeyID: Hashable {
        var tenant: UUID
        var key: String
    }

    struct KeyRow {
        var requestHash: String
        var owner: String?
        var lockedUntil: Date?
        var resourceId: String?
        /// What the key's request answered; nil while it runs.
        var outcome: IdempotentOutcome?
        /// When the key was answered (`completed_at`).
        var completedAt: Date?
    }

    struct State: Sendable {
        var payments: [String: PaymentRow] = [:]
        var attempts: [String: Attempt] = [:]
        var refunds: [String: OpenRow<Refund>] = [:]
        var operations: [String: OpenRow<PaymentOperation>] = [:]
        var keys: [KeyID: KeyRow] = [:]
        /// Each attempt's definite answer, recorded once (the `routing_outcomes` ledger).
        var outcomes: [String: RoutingOutcome] = [:]
        var changes: [StatusChange] = []
        /// The notification delays recorded: (account, seconds, when).
        var delays: [(account: UUID, seconds: TimeInterval, at: Date)] = []
    }

    let clock: @Sendable () -> Date
    /// The database outage tests play (none unless they ask).
    public let outage = InMemoryOutage()
    private let state = Mutex(State())

    /// A repository whose own timestamps (key claims) come from `clock`.
    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// Runs `body` as one transaction: its changes are kept only when it returns.
    func transact<T>(_ body: (inout State) throws -> T) rethrows -> T {
        // `body`'s answer leaves through `result`: `withLock` returns only `sending` values, and `T` need not be
        // Sendable.
        var result: T?
        try state.withLock { state in
            var copy = state
            result = try body(&copy)
            state = copy
        }
        return result!
    }

    /// Every status change announced so far, oldest first.
    public var statusChanges: [StatusChange] { state.withLock { $0.changes } }

    /// A payment as stored, in any tenant (for assertions).
    public func storedPayment(_ id: String) -> Payment? { state.withLock { $0.payments[id]?.stored } }
}

extension InMemoryPaymentRepository.OpenRow: Sendable where Value: Sendable {}

/// A write the PostgreSQL schema would refuse (a missing parent row, a duplicate, a failed check).
public struct InMemoryConstraintViolation: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}
