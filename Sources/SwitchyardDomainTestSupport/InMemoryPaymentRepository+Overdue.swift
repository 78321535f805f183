import Foundation
import SwitchyardCore

extension InMemoryPaymentRepository {
    public func recordNotificationDelay(tenant: UUID, accountId: UUID, seconds: TimeInterval, at time: Date)
        async throws
    {
        transact { $0.delays.append((accountId, seconds, time)) }
    }

    public func observedNotificationDelays(since: Date, percentile: Int, minSamples: Int) async throws
        -> [UUID: TimeInterval]
    {
        var rule = OverdueNotifications()
        rule.percentile = percentile
        rule.minSamples = minSamples
        let recent = transact { state in state.delays.filter { $0.at >= since } }
        return Dictionary(grouping: recent, by: \.account).compactMapValues { rule.observed($0.map(\.seconds)) }
    }

    public func pruneNotificationDelays(before cutoff: Date, limit: Int) async throws -> Int {
        transact { state in
            var deleted = 0
            state.delays.removeAll { delay in
                guard delay.at < cutoff, deleted < limit else { return false }
                deleted += 1
                return true
            }
            return deleted
        }
    }

    public func claimOverdueWaiting(
        now: Date, thresholds: [UUID: TimeInterval], fallback: TimeInterval, policy: OverdueNotifications,
        perAccount: Int, limit: Int
    ) async throws -> [(tenant: UUID, paymentId: String)] {
        transact { state in
            var perAccountCount: [UUID: Int] = [:]
            var claimed: [(tenant: UUID, paymentId: String)] = []
            let waiting = state.payments.values.filter { $0.payment.status == .requiresAction }.sorted {
                ($0.payment.createdAt, $0.payment.id) < ($1.payment.createdAt, $1.payment.id)
            }
            for row in waiting where claimed.count < limit {
                guard let account = row.payment.providerAccountId else { continue }
                let threshold = thresholds[account] ?? fallback
                let due = row.overdueNextAt ?? row.payment.createdAt.addingTimeInterval(threshold)
                guard due <= now, perAccountCount[account, default: 0] < perAccount else { continue }
                perAccountCount[account, default: 0] += 1
                var marked = row
                marked.overdueInquiries += 1
                marked.overdueNextAt = now.addingTimeInterval(
                    policy.interval(after: marked.overdueInquiries, threshold: threshold))
                state.payments[row.payment.id] = marked
                claimed.append((row.payment.tenantId, row.payment.id))
            }
            return claimed
        }
    }
}
