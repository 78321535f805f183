import Foundation

/// One movement of a merchant's funds, append-only: what a provider took from the merchant's balance or
/// gave back, signed from the merchant's side (negative: withdrawn). The ledger holds the movements that
/// happen after a payment settled: disputes' withdrawals and reinstatements, each written in the
/// transaction that records the dispute's change, so the two never disagree.
public struct LedgerEntry: Sendable, Equatable {
    /// What moved the funds.
    public enum Kind: String, Sendable, CaseIterable {
        /// A dispute took the disputed amount from the merchant.
        case disputeWithdrawal = "dispute_withdrawal"
        /// A dispute decided for the merchant gave the withdrawn amount back.
        case disputeReinstatement = "dispute_reinstatement"
    }

    /// `bt_…`.
    public var id: String
    public var tenantId: UUID
    public var accountId: UUID
    /// The payment whose funds moved; nil for a dispute of a payment Switchyard does not know.
    public var paymentId: String?
    /// The object that moved them (a dispute's `dp_…`).
    public var source: String
    public var kind: Kind
    /// Minor units of ``currency``, negative when withdrawn.
    public var amount: Int64
    public var currency: String
    public var livemode: Bool
    public var createdAt: Date

    public init(
        id: String, tenantId: UUID, accountId: UUID, paymentId: String?, source: String, kind: Kind, amount: Int64,
        currency: String, livemode: Bool, createdAt: Date
    ) {
        self.id = id
        self.tenantId = tenantId
        self.accountId = accountId
        self.paymentId = paymentId
        self.source = source
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.livemode = livemode
        self.createdAt = createdAt
    }

    /// The entries of one dispute step: one per funds action, in order, a microsecond apart so a list
    /// keeps their order; none for an amount of zero. Ids come from `makeId`.
    public static func entries(
        of step: DisputeStep, at time: Date, makeId: () -> String
    ) -> [LedgerEntry] {
        guard let dispute = step.dispute else { return [] }
        var entries: [LedgerEntry] = []
        for action in step.actions {
            let (kind, amount): (Kind, Int64)
            switch action {
            case .withdrawFunds(let value) where value > 0: (kind, amount) = (.disputeWithdrawal, -value)
            case .reinstateFunds(let value) where value > 0: (kind, amount) = (.disputeReinstatement, value)
            default: continue
            }
            entries.append(
                LedgerEntry(
                    id: makeId(), tenantId: dispute.tenantId, accountId: dispute.accountId,
                    paymentId: dispute.paymentId, source: dispute.id, kind: kind, amount: amount,
                    currency: dispute.currency, livemode: dispute.livemode,
                    createdAt: time.addingTimeInterval(Double(entries.count) / 1_000_000)))
        }
        return entries
    }
}

/// The filters of a ledger list, beside the page's cursor and creation window (its `type` is the page's
/// status filter).
public struct LedgerFilter: Sendable, Equatable {
    /// Only the movements of this payment.
    public var paymentId: String?
    /// Only the movements this object made (a dispute's id).
    public var source: String?

    public init(paymentId: String? = nil, source: String? = nil) {
        self.paymentId = paymentId
        self.source = source
    }
}
