import Foundation
import SwitchyardApp
import Testing

/// The `retention` section passes the strict reading of `policy.json`: every key it declares is known, a
/// misspelt one is named, a value out of range is refused.
struct RetentionPolicyDocumentTests {
    @Test func everyRetentionKeyIsKnown() {
        let data = Data(
            #"""
            {"retention":{"idempotency_keys_hours":24,"webhook_deliveries_hours":720,"webhook_events_hours":720,
             "notifications_hours":2160,"audit_entries_hours":9600,"routing_outcomes_hours":0,"batch_size":1000,
             "interval_seconds":60}}
            """#.utf8)
        #expect(PolicyDocument.problems(in: data) == [])
    }

    @Test func aMisspeltOrOutOfRangeRetentionKeyIsRefused() {
        #expect(
            PolicyDocument.problems(in: Data(#"{"retention":{"idempotency_key_hours":1}}"#.utf8))
                == ["retention.idempotency_key_hours: unknown key, did you mean idempotency_keys_hours?"])
        #expect(
            PolicyDocument.problems(in: Data(#"{"retention":{"interval_second":60}}"#.utf8))
                == ["retention.interval_second: unknown key, did you mean interval_seconds?"])
        let negative = PolicyDocument.problems(in: Data(#"{"retention":{"audit_entries_hours":-1}}"#.utf8))
        #expect(negative.count == 1 && negative[0].contains("retention.audit_entries_hours must be between 1 and"))
    }
}
