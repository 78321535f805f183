import Foundation
import Testing

@testable import SwitchyardCore

struct RetentionPolicyTests {
    func decode(_ section: String) throws -> PlatformPolicy.Retention {
        try JSONDecoder().decode(PlatformPolicy.self, from: Data(#"{"retention":\#(section)}"#.utf8)).retention
    }

    @Test func everyKindHasASafeDefault() throws {
        let defaults = try JSONDecoder().decode(PlatformPolicy.self, from: Data("{}".utf8)).retention
        #expect(defaults == PlatformPolicy.Retention())
        #expect(defaults.seconds(.idempotencyKeys) == 24 * 3600)
        #expect(defaults.seconds(.webhookDeliveries) == 30 * 86_400)
        #expect(defaults.seconds(.webhookEvents) == 30 * 86_400)
        #expect(defaults.seconds(.notifications) == 90 * 86_400)
        #expect(defaults.seconds(.auditEntries) == 400 * 86_400)
        #expect(defaults.batch == 1_000)
        #expect(defaults.interval == 60)
    }

    @Test func valuesAreReadByTheirKeys() throws {
        let set = try decode(
            #"""
            {"idempotency_keys_hours":2,"webhook_deliveries_hours":3,"webhook_events_hours":4,
             "notifications_hours":200,"audit_entries_hours":6,"routing_outcomes_hours":7,"batch_size":50,
             "interval_seconds":300}
            """#)
        #expect(set.seconds(.idempotencyKeys) == 2 * 3600)
        #expect(set.seconds(.webhookDeliveries) == 3 * 3600)
        #expect(set.seconds(.webhookEvents) == 4 * 3600)
        #expect(set.seconds(.notifications) == 200 * 3600)
        #expect(set.seconds(.auditEntries) == 6 * 3600)
        #expect(set.routingOutcomesHours == 7)
        #expect(set.batch == 50)
        #expect(set.interval == 300)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(set.cutoff(.idempotencyKeys, at: now) == now.addingTimeInterval(-7200))
    }

    @Test func negativeZeroAndAbsurdValuesAreRefused() throws {
        let cases = [
            ("idempotency_keys_hours", "0"), ("idempotency_keys_hours", "-1"), ("webhook_deliveries_hours", "0"),
            ("webhook_events_hours", "87601"), ("audit_entries_hours", "9223372036854775807"),
            ("notifications_hours", "167"), ("routing_outcomes_hours", "-1"), ("batch_size", "0"),
            ("batch_size", "10001"), ("interval_seconds", "0"), ("interval_seconds", "86401"),
            ("interval_seconds", "1.5"),
        ]
        for (key, value) in cases {
            #expect(throws: DecodingError.self, "\(key) \(value)") { try decode(#"{"\#(key)":\#(value)}"#) }
        }
        let lowest = try decode(#"{"routing_outcomes_hours":0,"notifications_hours":168}"#)
        #expect(lowest.seconds(.notifications) == 168 * 3600)
    }

    @Test func valuesSetInCodeAreClampedSoNoCutoffOverflows() {
        var programmatic = PlatformPolicy.Retention()
        programmatic.idempotencyKeysHours = Int.max
        programmatic.auditEntriesHours = -5
        programmatic.batchSize = Int.min
        programmatic.routingOutcomesHours = Int.max
        programmatic.intervalSeconds = Int.min
        #expect(programmatic.seconds(.idempotencyKeys) == Double(PlatformPolicy.Retention.maximumHours) * 3600)
        #expect(programmatic.seconds(.auditEntries) == 3600)
        #expect(programmatic.batch == 1)
        #expect(programmatic.interval == 1)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let since = now.addingTimeInterval(-600)
        #expect(
            programmatic.routingOutcomesCutoff(window: since, at: now)
                == now.addingTimeInterval(-Double(PlatformPolicy.Retention.maximumHours) * 3600))
    }

    @Test func routingOutcomesAreKeptAtLeastForTheStatisticsWindow() {
        var retention = PlatformPolicy.Retention()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let since = now.addingTimeInterval(-3600)
        #expect(retention.routingOutcomesCutoff(window: since, at: now) == since, "by default the window alone")
        retention.routingOutcomesHours = 2
        #expect(retention.routingOutcomesCutoff(window: since, at: now) == now.addingTimeInterval(-7200))
    }
}
