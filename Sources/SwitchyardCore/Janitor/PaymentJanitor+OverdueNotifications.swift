import Foundation

extension PaymentJanitor {
    /// Syncs the payments waiting for the customer's app whose notification is overdue against their
    /// account's observed delays (see ``OverdueNotifications``); returns how many were claimed.
    func inquireOverdue(now: Date) async -> Int {
        let platform = service.policy.platform
        let policy = platform.overdueNotifications
        let thresholds: [UUID: TimeInterval]
        do {
            let since = now.addingTimeInterval(-TimeInterval(max(1, policy.windowHours)) * 3600)
            thresholds = try await overdueThresholds.thresholds(at: now, policy: policy) {
                try await payments.notificationDelays(since: since)
            }
        } catch {
            if !Task.isCancelled && !outage.failed(error) {
                logger.warning("notification delays could not be read", metadata: ["error": "\(error)"])
            }
            return 0
        }
        let perAccount = policy.budget(poll: TimeInterval(max(1, platform.janitor.pollMs)) / 1000)
        return await claimAndRun(
            "overdue notifications",
            claim: {
                try await payments.claimOverdueWaiting(
                    now: now, thresholds: thresholds, fallback: policy.threshold(observed: nil), policy: policy,
                    perAccount: perAccount, limit: platform.janitor.batchSize)
            },
            step: { _ = try await service.sync(tenant: $0, paymentId: $1) })
    }
}
