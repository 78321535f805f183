import Foundation
import Testing

@testable import SwitchyardCore

struct IdempotencyPolicyTests {
    @Test func theLeaseDefaultsToTwiceTheProviderTimeoutAndIsBounded() throws {
        let defaults = try JSONDecoder().decode(PlatformPolicy.self, from: Data("{}".utf8))
        #expect(defaults.idempotency.leaseMs == 2 * defaults.limits.providerTimeoutMs)
        #expect(defaults.idempotency.lease == 30)
        let set = try JSONDecoder().decode(
            PlatformPolicy.self, from: Data(#"{"idempotency":{"lease_ms":5000}}"#.utf8))
        #expect(set.idempotency.lease == 5)
        for bad in ["0", "-1", "999", "86400001", "9223372036854775807"] {
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode(
                    PlatformPolicy.self, from: Data(#"{"idempotency":{"lease_ms":\#(bad)}}"#.utf8))
            }
        }
        var programmatic = PlatformPolicy.Idempotency()
        programmatic.leaseMs = 0
        #expect(programmatic.lease == 1)
    }

    /// The `debugDescription` of the error decoding `idempotency` as `json` throws, or nil when it decodes.
    static func refusal(_ json: String) -> String? {
        do {
            _ = try JSONDecoder().decode(PlatformPolicy.self, from: Data(#"{"idempotency":\#(json)}"#.utf8))
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }

    @Test func theHeartbeatAndTheSilenceLimitArePolicyKeysWithAMargin() throws {
        let defaults = PlatformPolicy.Idempotency()
        #expect(defaults.heartbeatInterval == 2 && defaults.silenceLimit == 15)
        let set = try JSONDecoder().decode(
            PlatformPolicy.self,
            from: Data(#"{"idempotency":{"heartbeat_interval_ms":5000,"silence_limit_ms":60000}}"#.utf8))
        #expect(set.idempotency.heartbeatInterval == 5 && set.idempotency.silenceLimit == 60)
        #expect(set.problem() == nil)

        let cases: [(String, String)] = [
            (#"{"heartbeat_interval_ms":99}"#, "idempotency.heartbeat_interval_ms must be between 100 and 60000"),
            (#"{"heartbeat_interval_ms":60001}"#, "idempotency.heartbeat_interval_ms must be between 100 and 60000"),
            (#"{"silence_limit_ms":999}"#, "idempotency.silence_limit_ms must be between 1000 and 3600000"),
            (#"{"silence_limit_ms":9223372036854775807}"#, "idempotency.silence_limit_ms must be between"),
            // The silence must span three beats: 5 s of silence with 2 s beats could free a live server's keys.
            (
                #"{"silence_limit_ms":5000}"#,
                "idempotency.silence_limit_ms must be at least 3 times idempotency.heartbeat_interval_ms (2000): "
                    + "at least 6000, not 5000"
            ),
            (
                #"{"heartbeat_interval_ms":10000,"silence_limit_ms":29999}"#,
                "heartbeat_interval_ms (10000): at least 30000, not 29999"
            ),
        ]
        for (json, message) in cases {
            let refusal = Self.refusal(json)
            #expect(refusal?.contains(message) == true, "\(json): \(refusal ?? "accepted")")
        }
        #expect(Self.refusal(#"{"heartbeat_interval_ms":10000,"silence_limit_ms":30000}"#) == nil)

        // A policy built in code is checked as a whole, and its silence never undercuts three beats.
        var policy = PlatformPolicy()
        policy.idempotency.heartbeatIntervalMs = 10_000
        #expect(policy.problem()?.contains("idempotency.silence_limit_ms") == true)
        #expect(policy.idempotency.silenceLimit == 30)
    }
}
