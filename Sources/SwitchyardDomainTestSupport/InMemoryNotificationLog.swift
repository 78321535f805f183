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
        let id = Int64(stored.count + 1)
        stored.append(
            Entry(
                id: id, accountId: accountId, tenantId: tenantId, body: body, verified: true, applied: false,
                rejection: nil, receivedAt: time))
        contentIds[signedContent] = id
        return .toApply(id: id)
    }

    public func markApplied(id: Int64, tenantId: UUID, at time: Date) async throws {
        update(id, tenantId) { $0.applied = true }
    }

    public func markRejected(id: Int64, tenantId: UUID, paymentId: String, rejection: ReportRejection, at time: Date)
        async throws
    {
        update(id, tenantId) { $0.rejection = rejection }
    }

    public func recordUnverified(
        accountId: UUID, tenantId: UUID, headers: [HTTPHeader], body: Data, failureReason: String?, at time: Date,
        cap: Int, since: Date
    ) async throws -> Bool {
        let recent = stored.filter { !$0.verified && $0.accountId == accountId && $0.receivedAt >= since }.count
        guard recent < cap else { return false }
        stored.append(
            Entry(
                id: Int64(stored.count + 1), accountId: accountId, tenantId: tenantId, body: body, verified: false,
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

    private func update(_ id: Int64, _ tenantId: UUID, _ change: (inout Entry) -> Void) {
        guard let index = stored.firstIndex(where: { $0.id == id && $0.tenantId == tenantId }) else { return }
        change(&stored[index])
    }
}
