import Foundation
import Testing

@testable import SwitchyardCore

/// The `notifications` policy section: every key optional, and values that would undo the limits clamped.
@Suite struct NotificationPolicyTests {
    @Test func theSectionDecodesWithDefaults() throws {
        let json = #"{"notifications":{"unverified_sync_interval_ms":5000,"unverified_stored_per_hour":7}}"#
        let policy = try JSONDecoder().decode(PlatformPolicy.self, from: Data(json.utf8))
        #expect(policy.notifications.syncInterval == 5)
        #expect(policy.notifications.storedPerHour == 7)
        #expect(policy.notifications.syncPayments == 20)
        #expect(policy.notifications.retention == 168 * 3600)
        let empty = try JSONDecoder().decode(PlatformPolicy.self, from: Data("{}".utf8))
        #expect(empty.notifications == PlatformPolicy.Notifications())
        #expect(empty.notifications.syncInterval == 60)
    }

    @Test func valuesThatWouldUndoTheLimitsAreClamped() throws {
        let json =
            #"{"notifications":{"unverified_sync_interval_ms":-1,"unverified_sync_payments":0,"unverified_stored_per_hour":-5,"unverified_retention_hours":9223372036854775807}}"#
        let settings = try JSONDecoder().decode(PlatformPolicy.self, from: Data(json.utf8)).notifications
        #expect(settings.syncInterval > 0)
        #expect(settings.syncPayments == 1)
        #expect(settings.storedPerHour == 0)
        #expect(settings.retention == 876_000 * 3600, "capped at a century, no overflow trap")
    }
}
