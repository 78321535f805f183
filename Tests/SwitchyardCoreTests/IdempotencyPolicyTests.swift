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
}
