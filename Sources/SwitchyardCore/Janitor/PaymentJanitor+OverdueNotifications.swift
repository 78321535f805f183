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
                try await payments.observedNotificationDelays(
                    since: since, percentile: policy.percentile, minSamples: policy.minSamples)
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

    /// Deletes the recorded notification delays that left the observation window
    /// (`overdue_notifications.window_hours`), a `retention.batch_size` at a time and paced like the
    /// retention deletes.
    func pruneNotificationDelays(now: Date) async {
        let platform = service.policy.platform
        let cutoff = now.addingTimeInterval(-TimeInterval(max(1, platform.overdueNotifications.windowHours)) * 3600)
        await deleteExpired("notification_delays", at: now) {
            try await payments.pruneNotificationDelays(before: cutoff, limit: platform.retention.batch)
        }
    }
}
