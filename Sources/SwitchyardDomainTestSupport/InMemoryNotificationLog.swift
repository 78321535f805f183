import Foundation
import ProviderKit
import SwitchyardCore

/// Inbound notifications in memory: verified ones keyed by their signed content (a replay is recognised),
/// unverifiable ones counted against the cap, background sync claims per account.
public actor InMemoryNotificationLog: NotificationLog {
    /// One recorded notification.
    public struct Entry: Sendable {
        public var id: Int64
        public var accountId: UUID
        public var tenantId: UUID
        public var body: Data
        public var verified: Bool
        public var applied: Bool
        public var rejection: ReportRejection?
        public var receivedAt: Date
        /// When it was applied or rejected (`applied_at`).
        public var handledAt: Date? = nil
        /// The payment a rejected notification concerns.
        public var paymentId: String? = nil
    }

    private var stored: [Entry] = []
    private var contentIds: [Data: Int64] = [:]
    private var syncClaims: [UUID: Date] = [:]

    public init() {}

    /// Every stored notification, oldest first.
    public var entries: [Entry] { stored }

    public func recordVerified(
        accountId: UUID, tenantId: UUID, headers: [HTTPHeader], body: Data, signedContent: Data, at time: Date
    ) async throws -> VerifiedNotificationRecord {
        if let id = contentIds[signedContent], let entry = stored.first(where: { $0.id == id }) {
            return entry.applied || entry.rejection != nil ? .applied : .toApply(id: id)
        }
        let id = nextId
        stored.append(
            Entry(
                id: id, accountId: accountId, tenantId: tenantId, body: body, verified: true, applied: false,
                rejection: nil, receivedAt: time))
        contentIds[signedContent] = id
        return .toApply(id: id)
    }

    public func markApplied(id: Int64, tenantId: UUID, at time: Date) async throws {
        update(id, tenantId) {
            $0.applied = true
            $0.handledAt = time
        }
    }

    public func markRejected(id: Int64, tenantId: UUID, paymentId: String, rejection: ReportRejection, at time: Date)
        async throws
    {
        update(id, tenantId) {
            $0.rejection = rejection
            $0.handledAt = time
            $0.paymentId = paymentId
        }
    }

    public func recordUnverified(
        accountId: UUID, tenantId: UUID, headers: [HTTPHeader], body: Data, failureReason: String?, at time: Date,
        cap: Int, since: Date
    ) async throws -> Bool {
        let recent = stored.filter { !$0.verified && $0.accountId == accountId && $0.receivedAt >= since }.count
        guard recent < cap else { return false }
        stored.append(
            Entry(
                id: nextId, accountId: accountId, tenantId: tenantId, body: body, verified: false,
                applied: false, rejection: nil, receivedAt: time))
        return true
    }

    public func claimUnverifiedSync(accountId: UUID, tenantId: UUID, at time: Date, notAfter: Date) async throws
        -> Bool
    {
        if let claimed = syncClaims[accountId], claimed > notAfter { return false }
        syncClaims[accountId] = time
        return true
    }

    public func purgeUnverified(before cutoff: Date, limit: Int) async throws -> Int {
        let doomed = stored.filter { !$0.verified && $0.receivedAt < cutoff }.prefix(max(0, limit)).map(\.id)
        stored.removeAll { doomed.contains($0.id) }
        return doomed.count
    }

    /// The id of the next stored notification (ids are never reused once rows are deleted).
    private var nextId: Int64 { (stored.last?.id ?? 0) + 1 }

    private func update(_ id: Int64, _ tenantId: UUID, _ change: (inout Entry) -> Void) {
        guard let index = stored.firstIndex(where: { $0.id == id && $0.tenantId == tenantId }) else { return }
        change(&stored[index])
    }

    /// Deletes up to `limit` verified notifications handled before `cutoff`, oldest first, as the store's
    /// retention does: a rejected one only when `isOpen` says its payment is not open; returns how many.
    func deleteHandled(before cutoff: Date, limit: Int, isOpen: @Sendable (String) -> Bool) -> Int {
        let doomed = stored.filter { entry in
            guard entry.verified, let handled = entry.handledAt, handled < cutoff else { return false }
            return entry.rejection == nil || !(entry.paymentId.map(isOpen) ?? false)
        }.sorted { ($0.handledAt ?? cutoff) < ($1.handledAt ?? cutoff) }.prefix(max(0, limit)).map(\.id)
        stored.removeAll { doomed.contains($0.id) }
        contentIds = contentIds.filter { !doomed.contains($0.value) }
        return doomed.count
    }
}
